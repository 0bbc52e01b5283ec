// Answers of read routes (REST find/findOne, GraphQL queries) kept as the bytes that were sent, and served
// again only while they are still the answer. An entry notes, before its answer was built, this process's
// commit number (storage/data-changes.ts) and the database's change token (other processes and nodes:
// Database.changeToken), and the tables the answer can have read (answer-tables.ts). It is served while
// no commit of this process wrote one of those tables since, and the token is unchanged; otherwise it is
// rebuilt. Keys hold everything else an answer depends on: the route and the request as sent, and the
// caller's effective permissions (what they may do, not who they are: every Public caller shares entries).
import { createHash } from 'node:crypto';
import { FULL_ACCESS, READ_ONLY, type Ability } from '../auth/abilities';
import type { Database } from '../storage/dialect';

export interface ResponseCacheConfig {
  enabled: boolean;
  /** the bytes of the kept answers (bodies and keys), least recently used out first */
  maxBytes: number;
  /** `Cache-Control` of cacheable answers; false: none */
  cacheControl: string | false;
}

export const DEFAULT_CACHE_CONFIG: ResponseCacheConfig = { enabled: true, maxBytes: 64 * 1024 * 1024, cacheControl: 'no-cache' };

/** what a caller may do, as a short stable text: the same for every caller with the same permissions */
const fingerprints = new WeakMap<Ability, string>([[FULL_ACCESS, 'full'], [READ_ONLY, 'read']]);
const interned = new Map<string, string>();
const MAX_INTERNED = 10_000;
/** ids are never given twice: after the table is cleared, a set seen before gets a new id (a miss, never another set's answers) */
let nextId = 0;

/** the caller part of a key, or null for an ability whose permissions cannot be listed */
export function permissionsKey(ability: Ability): string | null {
  const known = fingerprints.get(ability);
  if (known !== undefined) return known;
  const actions = (ability as { actions?: ReadonlySet<string> }).actions;
  if (!(actions instanceof Set)) return null;
  const text = [...actions].sort().join(',');
  if (interned.size >= MAX_INTERNED) interned.clear();
  let id = interned.get(text);
  if (id === undefined) interned.set(text, (id = `p${nextId++}`));
  fingerprints.set(ability, id);
  return id;
}

/** what an answer was built from: this process's commit number and the others' token, read before it */
export interface Snapshot {
  seq: number;
  token: number | string;
}

export interface CachedAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  /** strong: a digest of the body */
  etag: string;
  tables: readonly string[];
  at: Snapshot;
  /** the headers fast-hits.ts sends with it to a request without an Origin, made on its first such hit */
  headersNoOrigin?: Record<string, string | number>;
  /** the same for its 304 */
  headersNoOrigin304?: Record<string, string | number>;
}

/** the bytes an entry holds besides its body and key (the object, the arrays shared with others not counted) */
const ENTRY_OVERHEAD = 160;

export class ResponseCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;
  /** an answer bigger than this is sent, not kept (it would push out many others) */
  private readonly maxEntryBytes: number;
  hits = 0;
  misses = 0;
  /** hits served before routing (fast-hits.ts, through hitNow), counted in `hits` too */
  earlyHits = 0;

  /** whether the change token is answered at once (SQLite): then `peek` can serve without waiting */
  private readonly tokenAtOnce: boolean;

  constructor(private readonly db: Database, readonly config: ResponseCacheConfig) {
    this.maxEntryBytes = Math.max(0, Math.floor(config.maxBytes / 8));
    const token = this.usable ? db.changeToken!() : undefined;
    this.tokenAtOnce = token !== undefined && typeof token !== 'object';
    if (token instanceof Promise) token.catch(() => undefined);
  }

  /**
   * The kept answer for `key` if it is valid and that can be told without waiting (SQLite), counted as a hit;
   * else undefined, dropping nothing (the caller then takes the way that builds answers, which looks it up).
   */
  hitNow(key: string): CachedAnswer | undefined {
    if (!this.tokenAtOnce) return undefined;
    const e = this.entries.get(key);
    if (!e || e.at.token !== this.db.changeToken!() || this.db.changes!.changedSince(e.tables, e.at.seq)) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    this.hits++;
    this.earlyHits++;
    return e;
  }

  /** whether the database can tell this cache of every change (both parts of Database's change tracking) */
  get usable(): boolean {
    return this.config.enabled && this.config.maxBytes > 0 && this.db.changes !== undefined && this.db.changeToken !== undefined;
  }

  /** read before building an answer that may be kept */
  snapshot(): Snapshot | Promise<Snapshot> {
    const seq = this.db.changes!.current;
    const token = this.db.changeToken!();
    return typeof token === 'object' ? token.then((t) => ({ seq, token: t })) : { seq, token };
  }

  /**
   * The kept answer for `key` while it is still the answer, with the snapshot to build a new one from
   * otherwise (read now: an answer built after this is at least as new).
   */
  lookup(key: string): { hit: CachedAnswer } | { miss: Snapshot } | Promise<{ hit: CachedAnswer } | { miss: Snapshot }> {
    const now = this.snapshot();
    return typeof (now as Promise<Snapshot>).then === 'function' ? (now as Promise<Snapshot>).then((s) => this.check(key, s)) : this.check(key, now as Snapshot);
  }

  private check(key: string, now: Snapshot): { hit: CachedAnswer } | { miss: Snapshot } {
    const e = this.entries.get(key);
    if (e) {
      if (e.at.token === now.token && !this.db.changes!.changedSince(e.tables, e.at.seq)) {
        // most recently used last
        this.entries.delete(key);
        this.entries.set(key, e);
        this.hits++;
        return { hit: e };
      }
      this.drop(key, e);
    }
    this.misses++;
    return { miss: now };
  }

  /**
   * Keeps an answer built from the data as of `at`. A commit between `at` and now makes the next lookup
   * miss (its number is past `at.seq`, or the token moved), so an answer that may have read it is never served.
   */
  store(key: string, at: Snapshot, tables: readonly string[], status: number, contentType: string, text: string): CachedAnswer {
    const body = Buffer.from(text);
    const entry: CachedAnswer = { status, contentType, body, etag: etagOf(body), tables, at };
    const size = body.length + key.length * 2 + ENTRY_OVERHEAD;
    if (size > this.maxEntryBytes) return entry;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.config.maxBytes) break;
      this.drop(k, e);
    }
    return entry;
  }

  private drop(key: string, e: CachedAnswer): void {
    this.entries.delete(key);
    this.bytes -= e.body.length + key.length * 2 + ENTRY_OVERHEAD;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/** a strong validator: the body's SHA-1, base64url */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** RFC 9110 If-None-Match: `*` or a list of entity tags, compared weakly (a `W/` prefix does not count) */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
