// What every fuzz file of test/fuzz/ shares: the seed and the number of cases (FUZZ_SEED, FUZZ_RUNS), one
// request sent as given through node:http and timed, the contract every answer is held to (no 5xx, under 5 s,
// REST rejections in v4's error envelope, GraphQL errors in GraphQL's shape), and the property runner that says
// how to reproduce a failure.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';
import { startFixtureApp, type RunningApp, type StartOptions } from '../helpers/fixture-app';
import { onPostgres } from '../helpers/test-database';

/** the base seed; each property adds its own offset, so one FUZZ_SEED reproduces the whole run */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 4242);

/**
 * FUZZ_RUNS: the cases of the whole of test/fuzz/, shared out by SHARES. The default (a CI run) is a few
 * thousand on SQLite; on PostgreSQL, where each write costs more, a fifth of it.
 */
const DEFAULT_TOTAL = onPostgres ? 1_000 : 5_000;
export const FUZZ_TOTAL = Number(process.env.FUZZ_RUNS ?? DEFAULT_TOTAL);

export interface Served { running: RunningApp; port: number }
/** the fixture app with its data (`opts` over it), started before the file's tests and stopped after them */
export function serveFixtureApp(opts: StartOptions = {}): Served {
  const served = {} as Served;
  beforeAll(async () => {
    served.running = await startFixtureApp(true, opts);
    served.port = Number(new URL(served.running.url).port);
  });
  afterAll(async () => {
    await served.running?.stop();
  });
  return served;
}

/** each property's share of FUZZ_RUNS (they add up to 1): the one place the split is decided */
export const SHARES = {
  'query-string near-valid': 0.08,
  'query-string structured': 0.08,
  'query-string malformed': 0.08,
  'json rest writes': 0.2,
  'json raw texts': 0.1,
  'json auth and users': 0.06,
  'multipart uploads': 0.06,
  'multipart entry writes': 0.04,
  'multipart raw bodies': 0.06,
  'graphql queries': 0.1,
  'graphql documents': 0.08,
  'graphql mutations': 0.06,
} as const;
export type PropertyName = keyof typeof SHARES;

/** the cases `name` runs (at least 10, so a tiny FUZZ_RUNS still tries each property) */
export function runsOf(name: PropertyName): number {
  return Math.max(10, Math.round(FUZZ_TOTAL * SHARES[name]));
}

/** a property's vitest timeout: generous per case (a 100,000-case run takes minutes per property) */
export function timeoutOf(name: PropertyName): number {
  return Math.max(300_000, runsOf(name) * 150);
}

/** no answer may take longer (the contract) */
export const SLOWEST_ANSWER_MS = 5_000;

export interface Answer {
  status: number;
  type: string;
  body: string;
  ms: number;
}

export interface Sent {
  method?: string;
  /** sent byte for byte, apart from what Node's client refuses (spaces, controls, above U+00FF): percent-encoded */
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** give up (an error) after this many ms without the answer: twice SLOWEST_ANSWER_MS unless given */
  timeoutMs?: number;
}

/** send() gave up waiting */
export class NoAnswer extends Error {}

/** One request through node:http on a connection of its own (a rejected body may close it), timed. */
export function send(port: number, o: Sent): Promise<Answer> {
  const path = o.path.replace(/[^\u0021-\u00ff]/gu, (c) => encodeURIComponent(c));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const timeout = o.timeoutMs ?? 2 * SLOWEST_ANSWER_MS;
    const req = http.request({ host: '127.0.0.1', port, path, method: o.method ?? 'GET', headers: o.headers, agent: false, timeout }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new NoAnswer(`no answer within ${timeout} ms: ${o.method ?? 'GET'} ${path.slice(0, 200)}`)));
    req.on('error', reject);
    req.end(o.body);
  });
}

/**
 * Bytes written to a new connection as they are (a lying Content-Length, a body cut short), then the socket
 * half-closed: whatever the server answers within the time, or '' when it closes without an answer. The
 * status line's code, 0 without one.
 */
export function sendBytes(port: number, bytes: Buffer): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('the server neither answered nor closed the connection within the time')), 2 * SLOWEST_ANSWER_MS);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text, ms: performance.now() - started });
    };
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', done);
    // a reset after the server answered (it closed while bytes were still coming): the answer counts
    socket.on('error', (err) => (chunks.length ? done() : (clearTimeout(timer), reject(err))));
  });
}

/** `what` is the request in a failure message, the answer's beginning after it */
function where(what: string, r: Answer): string {
  return `${r.status} in ${Math.round(r.ms)} ms for ${what.slice(0, 600)}\n${r.body.slice(0, 400)}`;
}

export function expectInTime(what: string, r: { ms: number }): void {
  expect(r.ms, `slower than ${SLOWEST_ANSWER_MS} ms: ${what.slice(0, 600)}`).toBeLessThan(SLOWEST_ANSWER_MS);
}

export interface ErrorEnvelope { status: number; name: string; message: string; details: unknown }

/**
 * The v4 REST contract for any answer: no 5xx, in time, JSON; a success carries `data` (content routes; the
 * users-permissions routes answer their own shapes: `successHasData` false); a failure is the error envelope.
 */
export function checkRestAnswer(what: string, r: Answer, successHasData = true): { data?: unknown; error?: ErrorEnvelope } {
  const w = where(what, r);
  expect(r.status, w).toBeLessThan(500);
  expectInTime(what, r);
  if (r.status === 204) return {};
  expect(r.type, w).toMatch(/^application\/json/);
  const body = JSON.parse(r.body) as { data?: unknown; error?: ErrorEnvelope };
  if (r.status >= 400) {
    expect(body.data, w).toBeNull();
    expect(body.error?.status, w).toBe(r.status);
    expect(typeof body.error?.name, w).toBe('string');
    expect(typeof body.error?.message, w).toBe('string');
    expect(body.error?.details, w).toBeTypeOf('object');
  } else if (successHasData) {
    expect(body, w).toHaveProperty('data');
  }
  return body;
}

/**
 * v4's (Apollo Server 3's) plain-text 400s for a request that holds no operation at all (src/graphql/request-shape.ts
 * answers them as v4 does, on purpose): the one exception to GraphQL's error shape.
 */
const APOLLO_TEXT_REFUSALS = /^(POST body missing, invalid Content-Type, or JSON object has no keys\.|GraphQL queries must be strings\.|Variables are invalid JSON\.|GET query missing\.|The variables must not nest objects and arrays more than \d+ levels deep)$/;

export interface GraphqlBody { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> }

/**
 * GraphQL's contract: no 5xx, in time; every error `{ message, extensions: { code } }` with data null or partial;
 * a batch is a list of such answers. A bad bearer token is refused before GraphQL in the REST envelope (v4).
 */
export function checkGraphqlAnswer(what: string, r: Answer): GraphqlBody[] {
  const w = where(what, r);
  expect(r.status, w).toBeLessThan(500);
  expectInTime(what, r);
  if (r.status === 400 && r.type.startsWith('text/plain')) {
    expect(r.body, w).toMatch(APOLLO_TEXT_REFUSALS);
    return [];
  }
  expect(r.type, w).toMatch(/^application\/(graphql-response\+)?json/);
  const parsed = JSON.parse(r.body) as GraphqlBody | GraphqlBody[];
  const answers = Array.isArray(parsed) ? parsed : [parsed];
  for (const body of answers) {
    if ('error' in body) {
      checkRestAnswer(what, r);
      continue;
    }
    expect(body.errors !== undefined || body.data != null, w).toBe(true);
    for (const e of body.errors ?? []) {
      expect(typeof e.message, w).toBe('string');
      expect(typeof e.extensions?.code, w).toBe('string');
    }
    if (body.errors?.length) expect(body.data === undefined || body.data === null || typeof body.data === 'object', w).toBe(true);
  }
  return answers;
}

/** the server still answers its health check, in time */
export async function expectHealthy(port: number): Promise<void> {
  const r = await send(port, { path: '/_health' });
  expect(r.status, 'health check after a batch').toBe(204);
  expectInTime('/_health', r);
}

/** `check` after every this many cases: the health request */
const BATCH = 250;

/**
 * Runs `check` on `runsOf(name)` values of `arb` (seed FUZZ_SEED + `offset`), the health check after every
 * batch and at the end; a failure names the command that replays it.
 */
export async function fuzz<T>(name: PropertyName, offset: number, port: number, arb: fc.Arbitrary<T>, check: (value: T) => Promise<void>): Promise<void> {
  let cases = 0;
  try {
    await fc.assert(fc.asyncProperty(arb, async (value) => {
      await check(value);
      if (++cases % BATCH === 0) await expectHealthy(port);
    }), { seed: FUZZ_SEED + offset, numRuns: runsOf(name), endOnFailure: true });
  } catch (err) {
    const e = err as Error;
    // long runs of one character (the huge strings and nestings generated) shortened, so the case stays readable
    const message = e.message.replace(/(.{1,6}?)\1{40,}/gs, (run, unit: string) => `${unit}…(${run.length / unit.length} times)`);
    e.message = `${name}: ${message}\nReproduce: FUZZ_SEED=${FUZZ_SEED} FUZZ_RUNS=${FUZZ_TOTAL} npx vitest run --project ${onPostgres ? 'postgres' : 'sqlite'} test/fuzz/ -t '${name}'`;
    throw e;
  }
  await expectHealthy(port);
}

/** `arb`'s value in one case out of `n`, null in the others */
export function oneIn<T>(n: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: n - 1 }, { arbitrary: arb, weight: 1 });
}

/** keys that must stay data: never reach an object's prototype */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** odd texts every generator mixes in */
export const ODD_TEXTS = ['', ' ', 'x', 'true', 'null', '0', '-0', '1e400', 'NaN', 'Infinity', '12abc', '0x10', '9223372036854775808', '2025-02-30',
  '\u0000', 'é', '😀', '\ud800', '\udfff', "'; DROP TABLE articles; --", '%', '_', '\\', '__proto__', 'constructor', '$eq', 'a'.repeat(300)];

/** the label fast-check gives a property: fuzz()'s name is also the test's, so `-t` finds it */
export function title(name: PropertyName, what: string): string {
  return `${name}: ${runsOf(name)} ${what} (seed ${FUZZ_SEED})`;
}
