// The response cache's acceptance test (issue 17): a seeded random sequence of reads and changes replayed
// against two Tessera servers on ONE database (a copy of the fixture app with its data; on the postgres
// project, one PostgreSQL database): ON with the response cache, OFF without it. Every read goes to both and
// the answers must be the same, byte for byte (status, body, every header but the cache's own and the clock's);
// ON's ETag must be its body's digest, and a 304 it gives must be for the body OFF sends. Changes go through either server's API (for
// ON, one made through OFF is another process's write), or straight into the database through the test's
// own connection, or change permissions (roles, a custom token, a revoked token) and the i18n default
// locale. The reads right after a change must already match; only the callers a change reaches through a
// documented delay (permissions re-read by another process: cache-sequence.ts) are left out until it passed.
//
// CACHE_DIFF_SEED=<n> replays another sequence, CACHE_DIFF_OPS=<n> sets its length, CACHE_DIFF_CACHE_BYTES=<n>
// ON's cache size, CACHE_DIFF_DEBUG=1 prints every operation and its outcome.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SqlValue } from '../../../src/storage/dialect';
import { dbRows } from '../../helpers/db-rows';
import { copyFixtureApp, startCopy, type RunningApp } from '../../helpers/fixture-app';
import { FIXTURE_APP } from '../../helpers/fixture-model';
import { dropProjectDatabase, onPostgres, secondConnection, sqlFor } from '../../helpers/test-database';
import { seedTokenTypes } from '../../helpers/token-types-seed';
import { eventually, sleep } from '../customization/custom-app';
import {
  CacheSequence, CALLER_TOKENS, grantAuthenticatedReads, READ_POOL,
  type Answer, type CallerName, type ChangeOp, type HttpCall, type ReadOp, type World,
} from './cache-sequence';

const SEED = Number(process.env.CACHE_DIFF_SEED ?? 20261117);
const OPERATIONS = Number(process.env.CACHE_DIFF_OPS ?? (onPostgres ? 3000 : 5000));
/** ON's responseCache.maxBytes */
const CACHE_BYTES = Number(process.env.CACHE_DIFF_CACHE_BYTES ?? 800_000);
/** every operation and its outcome on stdout */
const DEBUG = Boolean(process.env.CACHE_DIFF_DEBUG);
const CALLERS: readonly CallerName[] = ['public', 'full', 'readOnly', 'custom', 'revocable', 'user'];

interface Servers {
  on: RunningApp;
  off: RunningApp;
  /** the second connection: another process's writes */
  direct: Database;
  /** bearer headers per caller */
  headers: Record<CallerName, Record<string, string>>;
}

describe(`response cache: the same answers as without it (seed ${SEED}, ${OPERATIONS} operations)`, () => {
  let dir: string | undefined;
  let on: RunningApp | undefined;
  let off: RunningApp | undefined;
  let direct: Database | undefined;
  let s: Servers;

  beforeAll(async () => {
    const copy = (dir = copyFixtureApp(true));
    const file = path.join(copy, '.tmp/data.db');
    seedTokenTypes(file);
    grantAuthenticatedReads(file);
    // both servers run this project folder; a cache smaller than the answers it could keep, so entries are
    // pushed out (least recently used) and made again along the way
    const api = createRequire(__filename)(path.join(FIXTURE_APP, 'config/api.js')) as object;
    fs.writeFileSync(path.join(copy, 'config/api.js'), `module.exports = ${JSON.stringify({ ...api, responseCache: { maxBytes: CACHE_BYTES } })};\n`);
    on = await startCopy(copy, { env: { TESSERA_RESPONSE_CACHE: 'on' } });
    off = await startCopy(copy, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
    direct = secondConnection(on.app.db, file);
    const login = await send(on.url, { method: 'POST', path: '/api/auth/local', body: { identifier: 'reader', password: 'Reader-pass-1' } }, {});
    expect(login.status).toBe(200);
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    s = {
      on, off, direct,
      headers: {
        public: {}, full: bearer(on.token), readOnly: bearer(CALLER_TOKENS.readOnly), custom: bearer(CALLER_TOKENS.custom),
        revocable: bearer(CALLER_TOKENS.revocable), user: bearer(JSON.parse(login.body.toString()).jwt),
      },
    };
  });

  afterAll(async () => {
    await direct?.close();
    // OFF first: ON's stop() removes the folder and drops the database both use
    await off?.app.close();
    if (on) await on.stop();
    else if (dir) {
      fs.rmSync(dir, { recursive: true, force: true });
      await dropProjectDatabase(dir);
    }
  });

  it('answers every read as the uncached server does, right after every change', async () => {
    const started = Date.now();
    // the switch took: only ON keeps answers (and says so with an ETag)
    const [keptOn, keptOff] = await Promise.all([s.on.url, s.off.url].map((url) => send(url, READ_POOL[0], {})));
    expect([keptOn.headers.get('etag') !== null, keptOff.headers.get('etag') !== null]).toEqual([true, false]);
    const ids = async (table: string) => (await dbRows<{ id: number }>(s.direct, `SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id);
    const sequence = new CacheSequence({ seed: SEED, changeRate: 0.15 }, {
      articles: await ids('articles'), authors: await ids('authors'), categories: await ids('categories'), files: await ids('files'),
      pages: await dbRows<{ id: number; locale: string }>(s.direct, 'SELECT id, locale FROM pages ORDER BY id'),
    }, OPERATIONS);
    const run = new Replay(s);
    for (let step = 0; step < OPERATIONS; step++) {
      const op = sequence.next();
      if (op.kind === 'read') await run.read(step, op);
      else await run.change(step, op);
    }
    // every caller on every read once more, once every delayed change reached both servers (the revoked
    // token's 401s included)
    await run.waitForHeld();
    for (const caller of CALLERS) for (const call of READ_POOL) await run.read(OPERATIONS, { kind: 'read', caller, call, conditional: false }, true);

    const f = run.figures;
    console.info(`cache differential (${onPostgres ? 'postgres' : 'sqlite'}, seed ${SEED}): ${OPERATIONS} operations + ${CALLERS.length * READ_POOL.length} final reads in ${Date.now() - started} ms; `
      + `${f.compared} reads compared (${f.hits} served from the cache, ${f.notModified} 304s of ${f.conditional} conditional), ${f.skipped} reads skipped while a delayed change settled, ${f.racing} more sent to ON during changes; `
      + `changes (made/applied) ${Object.entries(f.changes).map(([k, v]) => `${k} ${v.made}/${v.applied}`).join(', ')}; answer statuses ${JSON.stringify(f.statuses)}`);
    expect(f.compared).toBeGreaterThan(OPERATIONS * 0.4);
    expect(f.hits).toBeGreaterThan(f.compared * 0.1); // the cache did answer
    expect(f.notModified).toBeGreaterThan(0);
    for (const [sort, v] of Object.entries(f.changes)) expect(v.applied, `${sort}s that applied`).toBeGreaterThan(v.made * 0.75);
    expect(f.revokedAnswers).toEqual([401]); // the final pass: the revoked token refused by both
  }, 240_000);

  it('answers a conditional GET of a missing entry with its 404, not 304 (RFC 9110 13.2.1)', async () => {
    const first = await send(s.on.url, rest404, s.headers.public);
    expect(first.status).toBe(404);
    const etag = first.headers.get('etag');
    const again = await send(s.on.url, rest404, etag ? { 'if-none-match': etag } : {});
    expect(again.status).toBe(404);
  });
});

const rest404: HttpCall = { method: 'GET', path: '/api/articles/999998' };

/** the state of one replay: what is held back, ON's last ETags, the figures, the recent operations */
class Replay {
  /** caller -> until when (ms) a delayed change may still be unseen by one of the servers */
  private readonly heldUntil = new Map<CallerName, number>();
  private readonly etags = new Map<string, string>();
  private readonly recent: string[] = [];
  readonly figures = {
    compared: 0, hits: 0, conditional: 0, notModified: 0, skipped: 0, racing: 0,
    changes: {} as Partial<Record<ChangeOp['sort'], { made: number; applied: number }>>,
    statuses: {} as Record<number, number>, revokedAnswers: [] as number[],
  };
  private readonly world: World;

  constructor(private readonly s: Servers) {
    const full = s.headers.full;
    this.world = {
      http: (server, call) => send(server === 'on' ? s.on.url : s.off.url, call, full),
      rows: (sql, ...params) => dbRows(s.direct, sql, ...(params as SqlValue[])),
      run: async (sql, ...params) => { await s.direct.run(sqlFor(s.direct, sql), params as SqlValue[]); },
      dateValue: (ms) => (onPostgres ? new Date(ms) : ms),
    };
  }

  /** whether `caller` is still held back (its reads are skipped then) */
  held(caller: CallerName): boolean {
    const until = this.heldUntil.get(caller);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.heldUntil.delete(caller);
    return false;
  }

  async waitForHeld(): Promise<void> {
    const last = Math.max(0, ...this.heldUntil.values());
    if (last > Date.now()) await sleep(last - Date.now());
    this.heldUntil.clear();
  }

  async change(step: number, op: ChangeOp): Promise<void> {
    this.note(step, `change: ${op.what}${op.racing?.length ? ` (ON reading meanwhile: ${op.racing.map((r) => `${r.caller} ${r.call.method} ${r.call.path}`).join(' | ')})` : ''}`);
    const racing = (op.racing ?? []).filter((r) => !this.held(r.caller)).map((r) => send(this.s.on.url, r.call, this.s.headers[r.caller]));
    const [applied] = await Promise.all([op.run(this.world), ...racing]);
    if (racing.length) this.figures.racing += racing.length;
    if (DEBUG) console.log(`#${step} ${applied ? 'applied' : 'NOT APPLIED'}: ${op.what}`);
    const sort = (this.figures.changes[op.sort] ??= { made: 0, applied: 0 });
    sort.made++;
    if (applied) sort.applied++;
    if (!op.delayed) return;
    const until = Date.now() + op.delayed.delayMs;
    if (op.delayed.callers !== 'all') {
      for (const c of op.delayed.callers) this.heldUntil.set(c, Math.max(until, this.heldUntil.get(c) ?? 0));
      return;
    }
    // every answer may change (the default locale): both servers must have re-read it before any read
    await sleep(op.delayed.delayMs);
    for (const url of [this.s.on.url, this.s.off.url]) {
      await eventually(async () => {
        const a = await send(url, { method: 'GET', path: '/api/pages?publicationState=preview&fields[0]=locale' }, {});
        return (JSON.parse(a.body.toString()).data as Array<{ attributes: { locale: string } }>).every((p) => p.attributes.locale === 'fr');
      }, 3_000, `${url} answers with the new default locale`);
    }
  }

  /** `final`: the pass after the sequence */
  async read(step: number, op: ReadOp, final = false): Promise<void> {
    if (this.held(op.caller)) {
      this.figures.skipped++;
      return;
    }
    const request = `${op.caller} ${op.call.method} ${op.call.path}${op.call.body === undefined ? '' : ` ${JSON.stringify(op.call.body)}`}`;
    const headers = this.s.headers[op.caller];
    const etag = op.conditional ? this.etags.get(request) : undefined;
    if (etag) this.figures.conditional++;
    this.note(step, `read: ${request}${etag ? ` (If-None-Match: ${etag})` : ''}`);
    const before = this.s.on.app.db.statementCount;
    const [a, b] = await Promise.all([send(this.s.on.url, op.call, etag ? { ...headers, 'if-none-match': etag } : headers), send(this.s.off.url, op.call, headers)]);
    const statements = this.s.on.app.db.statementCount - before;
    const fail = (why: string) => expect.fail(this.report(step, request, why, a, b));
    this.figures.compared++;
    this.figures.statuses[b.status] = (this.figures.statuses[b.status] ?? 0) + 1;
    // a hit runs no SQL (on PostgreSQL: one, the change token)
    const hit = a.headers.get('etag') !== null && statements <= (onPostgres ? 1 : 0);
    if (DEBUG) console.log(`#${step} ${a.status}/${b.status}${hit ? ' (hit)' : ''}: ${request}`);
    if (final && op.caller === 'revocable' && !this.figures.revokedAnswers.includes(b.status)) this.figures.revokedAnswers.push(b.status);
    // the body an ETag names: a HEAD answer has none, its ETag is the GET's (asked from OFF)
    const representation = async () => (op.call.method === 'HEAD' ? (await send(this.s.off.url, { ...op.call, method: 'GET' }, headers)).body : b.body);
    if (a.status === 304) {
      if (!etag) fail('304 to a request without If-None-Match');
      const now = etagOf(await representation());
      if (now !== etag) fail(`304 for ETag ${etag}, but the answer now is another body (${now})`);
      if (b.status !== 200) fail(`304 to a conditional request whose answer is ${b.status} (RFC 9110 13.2.1: preconditions apply to 2xx answers only)`);
      this.figures.notModified++;
    } else {
      if (a.status !== b.status || !a.body.equals(b.body)) fail('the answers differ');
      const differing = headersDiffer(a.headers, b.headers);
      if (differing.length) fail(`headers differ: ${differing.join('; ')}`);
      const tag = a.headers.get('etag');
      if (tag !== null) {
        const digest = etagOf(await representation());
        if (tag !== digest) fail(`ETag ${tag} is not the digest of the body (${digest})`);
        this.etags.set(request, tag);
      }
    }
    if (hit) this.figures.hits++;
  }

  private note(step: number, text: string): void {
    this.recent.push(`#${step} ${text}`);
    if (this.recent.length > 25) this.recent.shift();
  }

  private report(step: number, request: string, why: string, on: Answer, off: Answer): string {
    const show = (x: Answer) => {
      const text = x.body.toString();
      return `${x.status} ${x.headers.get('content-type') ?? ''} ${x.headers.get('etag') ?? ''}\n    ${text.length > 1500 ? `${text.slice(0, 1500)}... (${text.length} chars)` : text}`;
    };
    let at = 0;
    while (at < on.body.length && at < off.body.length && on.body[at] === off.body[at]) at++;
    return [
      `${why} (seed ${SEED}, step ${step}; replay: CACHE_DIFF_SEED=${SEED} CACHE_DIFF_OPS=${OPERATIONS})`,
      `  request: ${request}`,
      `  ON (cache):  ${show(on)}`,
      `  OFF:         ${show(off)}`,
      `  first difference at byte ${at}: ON ${JSON.stringify(on.body.subarray(Math.max(0, at - 60), at + 120).toString())}`,
      `                              OFF ${JSON.stringify(off.body.subarray(Math.max(0, at - 60), at + 120).toString())}`,
      '  the operations before it:',
      ...this.recent.map((r) => `    ${r}`),
    ].join('\n');
  }
}

/** what only the cached server sends, or changes with the moment of sending */
const OWN_HEADERS = new Set(['etag', 'cache-control', 'date', 'connection', 'keep-alive']);

/**
 * The headers (names and values) the two answers do not share, apart from OWN_HEADERS and the `Authorization`
 * that ON's kept answers add to `Vary` (they depend on the caller's credentials)
 */
function headersDiffer(on: Headers, off: Headers): string[] {
  const value = (h: Headers, n: string) => (n === 'vary' && h === on ? varyWithoutAuthorization(h.get(n)) : h.get(n));
  const names = new Set([...on.keys(), ...off.keys()].filter((n) => !OWN_HEADERS.has(n)));
  return [...names].filter((n) => value(on, n) !== value(off, n)).map((n) => `${n}: ${on.get(n)} / ${off.get(n)}`);
}

function varyWithoutAuthorization(vary: string | null): string | null {
  if (vary === null) return null;
  const rest = vary.split(',').map((v) => v.trim()).filter((v) => v.toLowerCase() !== 'authorization');
  return rest.length ? rest.join(', ') : null;
}

async function send(base: string, call: HttpCall, headers: Record<string, string>): Promise<Answer> {
  let body: string | FormData | undefined;
  if (call.multipart) {
    body = new FormData();
    for (const [k, v] of Object.entries(call.multipart.fields)) body.append(k, v);
    body.append('files', new Blob([fs.readFileSync(call.multipart.file)], { type: 'image/png' }), path.basename(call.multipart.file));
  } else if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers = { ...headers, 'content-type': 'application/json' };
  }
  const res = await fetch(`${base}${call.path}`, { method: call.method, headers, body, signal: AbortSignal.timeout(20_000) });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** the strong ETag of a body, computed here as the cache documents it: the body's SHA-1, base64url, quoted */
function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}
