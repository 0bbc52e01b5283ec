// SQL statements per request, counted in-process: Tessera's `db.statementCount` and the floor's own
// counter, around fastify `inject` calls (no network, nothing else running in between).
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { InjectRequest } from '../cases';
import type { Variant } from '../floor/queries';
import { createFloor } from '../floor/server';
import { JSON_VALUE_FUNCTION, jsonValueText } from '../../src/storage/json-values';

interface Counted {
  server: FastifyInstance;
  count(): number;
  close(): Promise<void>;
}

/**
 * Tessera from the checkout under test, in this process (its TypeScript runs through tsx). `responseCache`:
 * on or off (TESSERA_RESPONSE_CACHE in the environment it is given); the project's config when unset.
 */
export async function openTesseraInProcess(repo: string, projectDir: string, responseCache?: boolean): Promise<Counted> {
  // import(): works under tsx (npm run bench) and under vitest (the smoke test), where require() of .ts does not
  const { createTessera } = (await import(path.join(repo, 'src/core/tessera.ts'))) as typeof import('../../src/core/tessera');
  const cache = responseCache === undefined ? {} : { TESSERA_RESPONSE_CACHE: responseCache ? 'on' : 'off' };
  const app = await createTessera({ dir: projectDir, silent: true, env: { ...process.env, NODE_ENV: 'production', ...cache } });
  return { server: app.server, count: () => app.db.statementCount, close: () => app.close() };
}

/** one request through fastify inject */
export function injectOne(target: Counted, r: InjectRequest) {
  return target.server.inject({ method: r.method, url: r.url, payload: r.payload as object | undefined, headers: r.headers });
}

/** `requests` with `If-None-Match` of the ETag the target gives for the first one (none: as they are) */
export async function conditionalOn(target: Counted, requests: InjectRequest[]): Promise<InjectRequest[]> {
  const etag = (await injectOne(target, requests[0])).headers.etag;
  return typeof etag === 'string' ? requests.map((r) => ({ ...r, headers: { ...r.headers, 'if-none-match': etag } })) : requests;
}

export function openFloorInProcess(db: string, variant: Variant): Counted {
  const floor = createFloor({ db, variant });
  return { server: floor.app, count: () => floor.statements.count, close: () => floor.close() };
}

export interface StatementCount {
  /** statements per request (mean over the requests) */
  perRequest: number;
  /** distinct per-request counts seen */
  distinct: number[];
  /** statuses seen */
  statuses: number[];
  /** answers `failure` found failed (GraphQL: `errors` with a 200), the first few */
  failures?: string[];
}

/**
 * Median time of one request in-process (fastify inject, one at a time), in µs: the server's own work
 * without the network and the load generator. Targets are interleaved round by round so drift cancels out.
 * A round of a target stops after `roundMs` (at least one request): a request that scans a million rows
 * takes a good part of a second, and the median of fewer samples says the same.
 */
export async function timeInProcess(targets: { name: string; target: Counted; requests: InjectRequest[] }[], rounds = 5, perRound = 40, roundMs = 2000): Promise<Map<string, number>> {
  const samples = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  // warm-up: every distinct request once, so a server that keeps answers is timed on its kept ones
  for (const t of targets) {
    const distinct = new Map(t.requests.map((r) => [JSON.stringify(r), r]));
    for (const r of distinct.values()) await injectOne(t.target, r);
  }
  for (let round = 0; round < rounds; round++) {
    for (const t of targets) {
      const t0 = performance.now();
      let sent = 0;
      while (sent < perRound && (sent === 0 || performance.now() - t0 < roundMs)) {
        await injectOne(t.target, t.requests[sent % t.requests.length]);
        sent++;
      }
      samples.get(t.name)!.push(((performance.now() - t0) * 1000) / sent);
    }
  }
  const out = new Map<string, number>();
  for (const [name, xs] of samples) out.set(name, xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
  return out;
}

/**
 * Statements per request over `requests`; the first one only warms up (unless it is the only one), or with
 * `warmAll` every one is sent once before they are counted (reads on a server that keeps answers: the hits).
 * `failure` tells a failed answer (status and text) from a good one.
 */
export async function countStatements(target: Counted, requests: InjectRequest[], failure?: (status: number, text: string) => string | null, warmAll = false): Promise<StatementCount> {
  const per: number[] = [];
  const statuses = new Set<number>();
  const failures = new Set<string>();
  // the first request is not counted: caches filled once per process (Public permissions, ...) are not per-request work
  const counted = requests.length > 1 && !warmAll ? requests.slice(1) : requests;
  for (const r of warmAll ? requests : requests.length > 1 ? requests.slice(0, 1) : []) await injectOne(target, r);
  for (const r of counted) {
    const before = target.count();
    const res = await injectOne(target, r);
    per.push(target.count() - before);
    statuses.add(res.statusCode);
    const failed = failure?.(res.statusCode, res.body);
    if (failed && failures.size < 3) failures.add(failed);
  }
  return {
    perRequest: per.reduce((a, b) => a + b, 0) / Math.max(1, per.length),
    distinct: [...new Set(per)].sort((a, b) => a - b),
    statuses: [...statuses].sort(),
    ...(failures.size ? { failures: [...failures] } : {}),
  };
}

// ---- which statements a request runs, with SQLite's query plan (--explain) ----

interface NativeStatement {
  source: string;
}

/**
 * Records the SQL text of every statement execution while `fn` runs, by wrapping better-sqlite3's
 * Statement methods (the instance the checkout under test loads).
 */
export interface CapturedSql {
  sql: string;
  params: unknown[];
}

export async function captureSql<T>(repo: string, fn: () => Promise<T>): Promise<{ result: T; sql: CapturedSql[] }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Sqlite = require(require.resolve('better-sqlite3', { paths: [repo] })) as typeof import('better-sqlite3');
  const probe = new Sqlite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  const sql: CapturedSql[] = [];
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const m of ['all', 'get', 'run', 'iterate']) {
    const orig = proto[m];
    originals.set(m, orig);
    proto[m] = function (this: NativeStatement, ...args: unknown[]) {
      sql.push({ sql: this.source, params: args });
      return orig.apply(this, args);
    };
  }
  try {
    return { result: await fn(), sql };
  } finally {
    for (const [m, orig] of originals) proto[m] = orig;
  }
}

export interface ExplainedStatement {
  sql: string;
  runs: number;
  plan: string[];
  /** plan lines worth a look: full scans of tables, or an index on a low-selectivity column */
  warnings: string[];
}

const SUSPECT_INDEX = /USING (COVERING )?INDEX \S*(component_type|_field_index|related_type)\S*/;

export function explain(dbFile: string, sqls: CapturedSql[]): ExplainedStatement[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Sqlite = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Sqlite(dbFile, { readonly: true });
  // the JSON read path's exact fallback, as Tessera registers it on its connections
  db.function(JSON_VALUE_FUNCTION, { deterministic: true }, (type, value) => jsonValueText(String(type), value));
  try {
    const seen = new Map<string, { params: unknown[]; runs: number }>();
    for (const s of sqls) {
      const e = seen.get(s.sql);
      if (e) e.runs++;
      else seen.set(s.sql, { params: s.params, runs: 1 });
    }
    return [...seen.entries()].map(([sql, { params, runs }]) => {
      let plan: string[];
      try {
        plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
      } catch (err) {
        plan = [`(no plan: ${(err as Error).message})`];
      }
      const warnings = plan.filter((l) => (/^SCAN /.test(l) && !/json_each|CONSTANT ROW|SUBQUERY|\bp\b/.test(l)) || SUSPECT_INDEX.test(l));
      return { sql, runs, plan, warnings };
    });
  } finally {
    db.close();
  }
}
