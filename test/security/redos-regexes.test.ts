// Issue #20 part 1: every regular expression src/ applies to client input runs in linear time. Each one is
// timed here on a hostile input of about 10 KB of the shape that would make it backtrack (a long run that
// almost matches, then a character that does not): directly where it sits behind an exported function, and
// through HTTP where a client reaches it (the query string is capped at 8,192 characters, so ~8 KB there).
// A regex that backtracks quadratically takes hundreds of milliseconds on these; a linear one well under one.
// The email rule has its own file (redos-email.test.ts). docs/security.md lists each regex and why it is linear.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDate, toDateTime, toTime } from '../../src/documents/date-formats';
import { checkScalar } from '../../src/documents/scalar-rules';
import { printPath } from '../../src/documents/validation-messages';
import { clientOf } from '../../src/auth/rate-limit';
import type { ScalarAttribute, ScalarType } from '../../src/model/types';
import { slugifyName, isValidFileName } from '../../src/plugins/upload/file-name';
import { castFilterValue } from '../../src/query/cast-filter-value';
import { filePath } from '../../src/rest/entry-uploads';
import { NUMERIC } from '../../src/storage/compile-where';
import { RISKY_NUMBER } from '../../src/storage/json-values';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';

const N = 10_000;
const DIGITS = '1'.repeat(N);

const attr = (type: ScalarType): ScalarAttribute => ({
  name: 'field', kind: 'scalar', type, column: 'field', unique: false, private: false, required: false, writable: true, localized: true, raw: { type },
});
const write = (type: ScalarType, value: unknown) => () => checkScalar(attr(type), value, 'field', { isCreate: true, isDraft: false });
const attempt = (f: () => unknown) => () => { try { f(); } catch { /* a 400 is the expected outcome; only the time counts */ } };

/** the fastest of 5 rounds, in ms: a busy machine only ever adds time */
function fastest(f: () => unknown, perRound = 3): number {
  const rounds = [0, 1, 2, 3, 4].map(() => {
    const started = performance.now();
    for (let i = 0; i < perRound; i++) f();
    return (performance.now() - started) / perRound;
  });
  return Math.min(...rounds);
}

describe('each regex on a 10 KB hostile input, directly', () => {
  const cases: Array<[string, () => unknown]> = [
    // query/cast-filter-value.ts NUMBER: a biginteger filter value
    ['biginteger filter, digits then junk', attempt(() => castFilterValue(attr('biginteger'), '$eq', `${DIGITS}x`))],
    ['biginteger filter, digits then e', attempt(() => castFilterValue(attr('biginteger'), '$eq', `${DIGITS}e`))],
    ['biginteger filter, white space', attempt(() => castFilterValue(attr('biginteger'), '$eq', `1${' '.repeat(N)}x`))],
    // documents/scalar-rules.ts: uid, boolean cast, biginteger digits, email
    ['uid write', write('uid', `${'a'.repeat(N)}!`)],
    ['boolean write', write('boolean', 'true'.repeat(N / 4))],
    ['biginteger write', write('biginteger', `${DIGITS}x`)],
    ['email write', write('email', `a@${'a.'.repeat(N / 2)}1`)],
    // documents/date-formats.ts: DATE_PREFIX, TIME, ISO, epoch digits
    ['date write', write('date', `2020-01-01${DIGITS}`)],
    ['time write', write('time', `00:00:00.${DIGITS}`)],
    ['datetime, long fraction', write('datetime', `2020-01-01T00:00:00.${DIGITS}x`)],
    ['datetime, long offset-less digits', write('datetime', `2020${DIGITS}x`)],
    ['datetime, epoch digits', write('datetime', `${DIGITS}x`)],
    ['date filter', attempt(() => toDate(`${DIGITS}x`))],
    ['time filter', attempt(() => toTime(`${DIGITS}x`))],
    ['datetime filter', attempt(() => toDateTime(`2020-01-01T00:00:00.${DIGITS}+`))],
    // plugins/upload/file-name.ts: the stored name's slug, the name check
    ['file name, capitals', () => slugifyName('A'.repeat(N))],
    ['file name, capitals then a digit-less tail', () => slugifyName(`${'A'.repeat(N)}_`)],
    ['file name, underscores', () => slugifyName(`a${'_'.repeat(N)}a`)],
    ['file name, camel case', () => slugifyName('aA'.repeat(N / 2))],
    ['file name, compatibility characters', () => slugifyName('\u2167'.repeat(N / 4))],
    ['file name, replacements', () => slugifyName('&@'.repeat(N / 2))],
    ['file name check', () => isValidFileName(`${'a'.repeat(N)}|`)],
    // rest/entry-uploads.ts: multipart file field names
    ['multipart field, open brackets', attempt(() => filePath(`files[${'a'.repeat(N)}`))],
    ['multipart field, many brackets', attempt(() => filePath(`files${'[a'.repeat(N / 2)}`))],
    // documents/validation-messages.ts: error paths with client keys
    ['error path', () => printPath([`${DIGITS}x`, DIGITS])],
    // storage/json-values.ts: the JSON text SQLite wrote, client strings inside
    ['stored JSON, digits', () => RISKY_NUMBER.test(`{"a":"x","b":${DIGITS}}`)],
    ['stored JSON, many numbers', () => RISKY_NUMBER.test(`[${'1.5,'.repeat(N / 4)}1]`)],
    ['stored JSON, negative zero', () => RISKY_NUMBER.test(`[-0.${'0'.repeat(N)}`)],
    // auth/rate-limit.ts: the client address (X-Forwarded-For behind a proxy)
    ['client address', () => clientOf(`::ffff:${'1.'.repeat(N / 2)}`)],
  ];

  for (const [name, f] of cases) {
    it(name, () => {
      f(); // first call: compiles
      expect(fastest(f)).toBeLessThan(20);
    });
  }
});

describe('the linear rewrites match the same inputs as before', () => {
  it('NUMERIC (number filters, ids bound as numbers)', () => {
    // the pattern as it was: `\d+\.?\d*` splits a run of digits every possible way before failing
    const before = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
    const text = fc.array(fc.constantFrom('1', '0', '.', 'e', 'E', '+', '-', ' ', '\t', 'x'), { maxLength: 16 }).map((a) => a.join(''));
    fc.assert(fc.property(text, (s) => {
      expect(NUMERIC.test(s), JSON.stringify(s)).toBe(before.test(s));
    }), { numRuns: 20_000, seed: 20_003 });
  });

  // v4's decamelize step as it was written (quadratic on a long run of capitals): the oracle, on short names
  const decamelize = (s: string) => s.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z\d]+)/g, '$1 $2');
  const oracle = (s: string) => decamelize(s).replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');

  it('the file-name slug, on generated names', () => {
    const name = fc.array(fc.constantFrom('A', 'B', 'Z', 'a', 'z', '0', '9', '_', ' ', '-', '.'), { maxLength: 24 }).map((a) => a.join(''));
    fc.assert(fc.property(name, (s) => {
      expect(slugifyName(s)).toBe(oracle(s));
    }), { numRuns: 5000, seed: 20_002 });
  });
});

describe('each regex a client reaches, over HTTP', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startFixtureApp(true);
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** the fastest of 4 requests, in ms, each answered `status` */
  async function timed(status: number, path: string, init: RequestInit = {}): Promise<number> {
    let best = Infinity;
    for (let i = 0; i < 4; i++) {
      const started = performance.now();
      const res = await fetch(app.url + path, init);
      const text = await res.text();
      expect(res.status, text.slice(0, 300)).toBe(status);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  }
  const QUERY = 8000;
  const digits = '1'.repeat(QUERY);
  const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  const cases: Array<[string, number, string, RequestInit?]> = [
    ['biginteger filter', 400, `/api/articles?filters[big][$eq]=${digits}x`],
    ['id filter', 200, `/api/articles?filters[id][$eq]=${digits}x`],
    ['number filter', 400, `/api/articles?filters[views][$eq]=${digits}x`],
    ['datetime filter', 400, `/api/articles?filters[scheduledAt][$lt]=2020-01-01T00:00:00.${digits}x`],
    ['date filter', 400, `/api/articles?filters[publishDate][$lt]=${digits}x`],
    ['$contains escaping', 200, `/api/articles?filters[title][$contains]=${encodeURIComponent('%_\\'.repeat(1000))}`],
    ['numeric filter keys', 400, `/api/articles?filters[${digits}x][$eq]=1`],
    ['uid write', 400, '/api/articles', json('POST', { data: { title: 't', slug: `${'a'.repeat(N)}!` } })],
    ['biginteger write', 400, '/api/articles', json('POST', { data: { title: 't', big: `${'1'.repeat(N)}x` } })],
    ['datetime write', 400, '/api/articles', json('POST', { data: { title: 't', scheduledAt: `2020-01-01T00:00:00.${'1'.repeat(N)}x` } })],
    ['date write', 400, '/api/articles', json('POST', { data: { title: 't', publishDate: `${'1'.repeat(N)}x` } })],
    ['boolean write', 400, '/api/articles', json('POST', { data: { title: 't', featured: 'true'.repeat(N / 4) } })],
    ['Authorization header', 401, '/api/articles', { headers: { authorization: `Bearer${' '.repeat(N)}x` } }],
    ['Range header', 416, '/uploads/landscape_9e07983b1e.jpg', { headers: { range: `bytes=${'9'.repeat(N)}-` } }],
  ];

  for (const [name, status, path, init] of cases) {
    it(name, async () => {
      expect(await timed(status, path, init)).toBeLessThan(50);
    });
  }
});
