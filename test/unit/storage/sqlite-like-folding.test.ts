// The SQLite dialect answers `$containsi`, `$startsWithi`, ... with plain LIKE instead of v4's
// `lower(col) LIKE lower(?)`: SQLite's LIKE folds ASCII letters, and only those, as its lower() does. This
// checks that claim on the SQLite Tessera runs, over generated texts and patterns (ASCII and beyond, wildcards,
// escapes, numbers and NULLs).
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

const ALPHABET = ['a', 'B', 'z', 'Z', 'é', 'É', 'ß', 'İ', 'ı', 'Σ', 'σ', 'ς', 'ǅ', 'K', '1', ' ', '_', '%', '\\', 'ä', 'Ä', 'ﬀ', '😀'];

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

describe('SQLite LIKE folds case exactly as lower() on both sides', () => {
  it('on 20,000 generated pairs', () => {
    const db = new BetterSqlite3(':memory:');
    try {
      const v4 = db.prepare("SELECT lower(?) LIKE lower(?) ESCAPE '\\' AS m").pluck();
      const plain = db.prepare("SELECT ? LIKE ? ESCAPE '\\' AS m").pluck();
      const random = seeded(7);
      const text = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
      for (let i = 0; i < 20_000; i++) {
        const value: unknown = i % 97 === 0 ? null : i % 89 === 0 ? Math.floor(random() * 1000) : text(8);
        // patterns as Tessera binds them: the value's wildcards escaped, then wrapped (contains / starts / ends)
        const raw = text(4).replace(/[\\%_]/g, (c) => `\\${c}`);
        const pattern = [`%${raw}%`, `${raw}%`, `%${raw}`, raw][i % 4];
        expect(plain.get(value, pattern), `${JSON.stringify(value)} LIKE ${JSON.stringify(pattern)}`).toBe(v4.get(value, pattern));
      }
    } finally {
      db.close();
    }
  });
});
