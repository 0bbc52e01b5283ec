// One crash round: `tessera start` on a fresh copy of the fixture app, the round's writes (crash-workload.ts)
// sent CONCURRENCY at a time, SIGKILL once a seeded number of them has been sent, then: the project as the
// next start finds it (crash-checks.ts), compared with the fresh copy's; the server started again on it,
// without any repair; every acknowledged write read back through REST and compared with what was sent; the
// write in flight on each chain when the server died either fully there or not at all; a read and a new
// write answering 200. Nothing is thrown for what the round finds: it is returned as `failures`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from '../../bench/lib/seeded-random';
import { runTessera, SERVING, type CliRun } from '../helpers/cli-process';
import { copyFixtureApp } from '../helpers/fixture-app';
import { dropProjectDatabase } from '../helpers/test-database';
import { tinyPng } from '../integration/upload/fixtures';
import { checkProject, type ProjectCheck } from './crash-checks';
import { generateChains, type ArticleState, type AuthorState, type Block, type Chain, type Write } from './crash-workload';

export const CONCURRENCY = 32;
/** an answer slower than this is a hang (a failure), not a slow write */
const REQUEST_TIMEOUT_MS = 30_000;

export interface RoundFigures {
  round: number;
  seed: number;
  /** writes sent before and while the server was killed */
  sent: number;
  /** writes answered 2xx */
  acknowledged: number;
  /** acknowledged writes found complete after the restart (all of them, unless a failure names one) */
  verified: number;
  /** sent but unanswered when the server died (each must be whole or absent) */
  inFlight: number;
  /** of those, the ones found applied after the restart */
  inFlightApplied: number;
  /** the kill came after this many writes had been sent */
  killAfter: number;
  /** upload files on disk that no files row names after the kill (an upload whose row never committed) */
  unreferencedFiles: number;
  /** writes answered with an error status before the kill (each a failure) */
  refused: number;
  amcheck?: boolean;
  ms: number;
  failures: string[];
}

interface Sent {
  write: Write;
  /** the 2xx answer's body; undefined: not acknowledged */
  answer?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** answered with an error status: not applied */
  refused?: boolean;
}

interface ChainRun {
  chain: Chain;
  /** the writes sent, in order; only the last may lack an answer */
  sent: Sent[];
}

export async function crashRound(opts: { seed: number; round: number; writes: number }): Promise<RoundFigures> {
  const started = Date.now();
  const rng = seededRandom(opts.seed);
  const prefix = `crash-${opts.round}-`;
  const chains = generateChains(opts.seed, prefix, opts.writes);
  const total = chains.reduce((n, c) => n + c.writes.length, 0);
  const killAfter = Math.floor(total * (0.1 + 0.85 * rng()));
  const failures: string[] = [];
  const dir = copyFixtureApp(true);
  // the server's own temporary files (multipart bodies) out of the test's TMPDIR: a killed server leaves them
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-crash-tmp-'));
  const runs: CliRun[] = [];
  const start = async () => {
    const run = runTessera(['start', dir, '--host', '127.0.0.1', '--port', '0'], { NODE_ENV: 'test', TMPDIR: tmpDir });
    runs.push(run);
    const [, url] = await run.waitFor(SERVING, 60_000);
    return { run, url };
  };
  try {
    const token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
    const png = await tinyPng();
    const first = await start();
    const baseline = await checkProject(dir);
    if (baseline.problems.length) failures.push(...baseline.problems.map((p) => `the fresh copy already has: ${p}`));

    // -- the writes, and the kill
    const fired = await fireAndKill(chains, killAfter, rng, new Client(first.url, token, png), first.run);
    const { results, refusals } = fired;
    failures.push(...fired.failures);
    const log = first.run.output();
    // every refusal is a failure (the deadlock it found on PostgreSQL: postgres-relation-deadlock.test.ts, fixed)
    failures.push(...refusals.map((r) => r.what));
    // what the server logged about a failed write (a 500's cause)
    if (failures.length) failures.push(...serverErrors(log));

    // -- the project as the next start finds it
    const after = await checkProject(dir);
    const known = new Set(baseline.problems);
    failures.push(...after.problems.filter((p) => !known.has(p)));
    const acknowledged = results.flatMap((r) => r.sent).filter((s) => s.answer);

    // -- started again, without repair: every acknowledged write there, every write in flight whole or absent
    const second = await start();
    const api = new Client(second.url, token, png);
    const articles = await api.entries('articles', 'slug', prefix, ARTICLE_POPULATE);
    const authors = await api.entries('authors', 'name', prefix, 'populate[avatar][fields][0]=hash');
    let inFlightApplied = 0;
    let verified = 0;
    for (const run of results) {
      const opening = run.chain.writes[0].kind;
      const verdict = opening === 'create-author' ? judge(run, authors.get(run.chain.key), authorState)
        : opening === 'create-article' ? judge(run, articles.get(run.chain.key), articleState) : uploadVerdict(run, after);
      if (verdict.failure) failures.push(verdict.failure);
      else verified += run.sent.filter((s) => s.answer).length;
      if (verdict.applied) inFlightApplied++;
    }
    for (const slug of articles.keys()) if (!chains.some((c) => c.key === slug)) failures.push(`an article nobody wrote: ${slug}`);
    failures.push(...(await api.stillServes(prefix)));
    second.run.child.kill('SIGTERM');
    await second.run.exited;

    return {
      round: opts.round, seed: opts.seed, sent: fired.sent, acknowledged: acknowledged.length, verified,
      inFlight: results.filter(inFlightAtKill).length,
      inFlightApplied, killAfter, unreferencedFiles: after.unreferencedFiles.length - baseline.unreferencedFiles.length,
      refused: refusals.length, amcheck: after.amcheck, ms: Date.now() - started, failures,
    };
  } finally {
    for (const run of runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGKILL');
        await run.exited;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(tmpDir, { recursive: true, force: true });
    await dropProjectDatabase(dir);
  }
}

/**
 * The chains sent CONCURRENCY at a time, each write after the previous one's answer; SIGKILL a moment after the
 * `killAfter`-th write left. A write that fails without an answer before the kill is a failure (the server died
 * by itself); one answered with an error status is a refusal.
 */
async function fireAndKill(chains: Chain[], killAfter: number, rng: () => number, client: Client, server: CliRun) {
  const results: ChainRun[] = [];
  const refusals: Array<{ status: number; what: string }> = [];
  const failures: string[] = [];
  let sent = 0;
  let killed = false;
  const kill = () => {
    killed = true;
    server.child.kill('SIGKILL');
  };
  let next = 0;
  const worker = async () => {
    while (!killed && next < chains.length) {
      const run: ChainRun = { chain: chains[next++], sent: [] };
      results.push(run);
      for (const write of run.chain.writes) {
        if (killed) break;
        const entry: Sent = { write };
        run.sent.push(entry);
        if (++sent === killAfter) setTimeout(kill, Math.floor(rng() * 20)); // a moment into this write
        const outcome = await client.send(write, run);
        if (outcome.ok) {
          entry.answer = outcome.body;
          continue;
        }
        const what = `${run.chain.key}: ${write.kind} ${outcome.status ? `answered ${outcome.status}` : 'failed'} before the kill: ${outcome.error}; sent: ${JSON.stringify(write)}`;
        entry.refused = outcome.status !== undefined;
        if (outcome.status) refusals.push({ status: outcome.status, what });
        else if (!killed) failures.push(what);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (!killed) kill(); // every write answered before the kill point (a short round)
  await server.exited;
  return { results, refusals, failures, sent };
}

/** the first errors of a server's log, each with the lines that follow it (its stack, the statement) */
function serverErrors(log: string): string[] {
  const lines = log.split('\n');
  const at = lines.flatMap((l, i) => (/error:|exception|violat/i.test(l) ? [i] : [])).slice(0, 3);
  return at.map((i) => `server log: ${lines.slice(i, i + 12).join('\n').slice(0, 3000)}`);
}

// ---------------------------------------------------------------------------------------------- the client

const ARTICLE_POPULATE = [
  'publicationState=preview', 'populate[seo]=true', 'populate[links]=true', 'populate[blocks][populate]=*',
  'populate[author][fields][0]=name', 'populate[categories][fields][0]=name', 'populate[cover][fields][0]=hash', 'populate[gallery][fields][0]=hash',
].join('&');

type Outcome = { ok: true; body: any } | { ok: false; status?: number; error: string }; // eslint-disable-line @typescript-eslint/no-explicit-any

class Client {
  constructor(private readonly url: string, private readonly token: string, private readonly png: Buffer) {}

  async request(method: string, p: string, body?: FormData | Record<string, unknown>): Promise<Outcome> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(this.url + p, {
        method, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (res.status >= 200 && res.status < 300) return { ok: true, body: text ? JSON.parse(text) : null };
      return { ok: false, status: res.status, error: text.slice(0, 300) };
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return { ok: false, error: `${(err as Error).name}: ${(err as Error).message}${cause ? ` (${cause})` : ''}` };
    }
  }

  private files(field: string, names: string[], data?: Record<string, unknown>): FormData {
    const form = new FormData();
    for (const name of names) form.append(field, new Blob([new Uint8Array(this.png)], { type: 'image/png' }), name);
    if (data) form.append('data', JSON.stringify(data));
    return form;
  }

  send(write: Write, run: ChainRun): Promise<Outcome> {
    const key = run.chain.key;
    const id = () => run.sent[0].answer?.data?.id as number;
    switch (write.kind) {
      case 'create-article':
        return write.multipart
          ? this.request('POST', '/api/articles?populate[cover][fields][0]=hash', this.files('files.cover', [`${key}-cover.png`], write.body))
          : this.request('POST', '/api/articles', { data: write.body });
      case 'update-article':
        return this.request('PUT', `/api/articles/${id()}`, { data: write.body });
      case 'delete-article':
        return this.request('DELETE', `/api/articles/${id()}`);
      case 'create-author':
        return this.request('POST', '/api/authors', { data: write.body });
      case 'upload':
        return this.request('POST', '/api/upload', this.files('files', Array.from({ length: write.files }, (_, i) => `${key}-${i}.png`)));
    }
  }

  /** every entry of `plural` whose `field` starts with `prefix`, by that field */
  async entries(plural: string, field: string, prefix: string, query: string): Promise<Map<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const found = new Map<string, any>(); // eslint-disable-line @typescript-eslint/no-explicit-any
    for (let page = 1; ; page++) {
      const res = await this.request('GET', `/api/${plural}?filters[${field}][$startsWith]=${prefix}&sort=id&pagination[page]=${page}&pagination[pageSize]=100&${query}`);
      if (!res.ok) throw new Error(`reading ${plural} after the restart: ${res.status} ${res.error}`);
      for (const entry of res.body.data) {
        const name = entry.attributes[field] as string;
        if (found.has(name)) throw new Error(`two ${plural} with ${field} ${name} after the restart`);
        found.set(name, entry);
      }
      if (page >= res.body.meta.pagination.pageCount) return found;
    }
  }

  /** the restarted server reads (its kept totals right) and writes as before */
  async stillServes(prefix: string): Promise<string[]> {
    const problems: string[] = [];
    // a list's total read from the figures the count triggers keep (storage/kept-totals.ts) against the same
    // total counted (a filter on id makes it counted)
    for (const list of ['/api/articles?publicationState=preview&', '/api/articles?', '/api/authors?']) {
      const kept = await this.request('GET', `${list}pagination[pageSize]=1`);
      const counted = await this.request('GET', `${list}pagination[pageSize]=1&filters[id][$gt]=0`);
      if (!kept.ok || !counted.ok) return [`a read after the restart answered ${kept.ok ? '' : kept.status} ${counted.ok ? '' : counted.status}: ${kept.ok ? '' : kept.error}${counted.ok ? '' : counted.error}`];
      const [k, c] = [kept.body.meta.pagination.total, counted.body.meta.pagination.total];
      if (k !== c) problems.push(`${list}: the kept total is ${k}, the counted total ${c}`);
    }
    const created = await this.request('POST', '/api/articles', { data: { title: 'after the restart', slug: `${prefix}after-restart` } });
    if (!created.ok) return [...problems, `a write after the restart answered ${created.status}: ${created.error}`];
    const back = await this.request('GET', `/api/articles/${created.body.data.id}?publicationState=preview`);
    return back.ok ? problems : [...problems, `reading the write after the restart answered ${back.status}: ${back.error}`];
  }
}

// ------------------------------------------------------------------------------------------ the verdicts

/** the chain's last write was sent and neither answered nor refused when the server died */
function inFlightAtKill(run: ChainRun): boolean {
  const last = run.sent[run.sent.length - 1];
  return last !== undefined && !last.answer && !last.refused;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const ids = (rel: any): number[] => [rel?.data ?? []].flat().map((e: any) => e.id as number).sort((a, b) => a - b);
const oneId = (rel: any): number | null => rel?.data?.id ?? null;

/** an article as read back, in the shape of ArticleState */
function articleState(entry: any): ArticleState {
  const a = entry.attributes;
  const block = (b: any): Block => {
    if (b.__component === 'blocks.text') return { __component: b.__component, body: b.body };
    if (b.__component === 'blocks.quote') return { __component: b.__component, text: b.text, by: b.by };
    return { __component: b.__component, title: b.title, images: ids(b.images) };
  };
  return {
    title: a.title, slug: a.slug, body: a.body, views: a.views, rating: a.rating, featured: a.featured, kind: a.kind, meta: a.meta,
    seo: a.seo ? { metaTitle: a.seo.metaTitle, metaDescription: a.seo.metaDescription } : null,
    links: (a.links ?? []).map((l: any) => ({ label: l.label, url: l.url })),
    blocks: (a.blocks ?? []).map(block),
    author: oneId(a.author), categories: ids(a.categories), cover: oneId(a.cover), gallery: ids(a.gallery),
  };
}

function authorState(entry: any): AuthorState {
  const a = entry.attributes;
  return { name: a.name, email: a.email, bio: a.bio, avatar: oneId(a.avatar) };
}

/**
 * What a chain's entry must be after the restart: the state its acknowledged writes left, or (when a write was in
 * flight at the kill) that state or the one the write in flight makes. `applied`: the write in flight is there.
 */
function judge<T extends object>(run: ChainRun, entry: any, shape: (e: any) => T): { failure?: string; applied: boolean } {
  const acked = run.sent.filter((s) => s.answer).length;
  const inFlight = inFlightAtKill(run);
  const createAnswer = run.sent[0]?.answer;
  // the file a multipart create stored (its answer names it; unacknowledged: any file, but one)
  const expected = (k: number): T | null => {
    if (k === 0) return null;
    const after = (run.chain.writes[k - 1] as { after: T | null }).after;
    if (after && (after as ArticleState).cover === 'fromAnswer') return { ...after, cover: oneId(createAnswer?.data?.attributes?.cover) ?? 'any' };
    return after;
  };
  const actual = entry ? shape(entry) : null;
  const matches = (want: T | null) => {
    if (want === null || actual === null) return want === actual;
    const w = want as any;
    const got = w.cover === 'any' && typeof (actual as any).cover === 'number' ? { ...actual, cover: 'any' } : actual;
    return JSON.stringify(sortKeys(w)) === JSON.stringify(sortKeys(got));
  };
  if (matches(expected(acked))) return { applied: false };
  if (inFlight && matches(expected(acked + 1))) return { applied: true };
  const kinds = run.sent.map((s) => `${s.write.kind}${s.answer ? '' : s.refused ? ' (refused)' : ' (in flight)'}`).join(', ');
  return {
    applied: false,
    failure: `${run.chain.key} after ${kinds}: expected ${describe(expected(acked))}${inFlight ? ` or ${describe(expected(acked + 1))}` : ''}, found ${describe(actual)}`,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

function describe(v: unknown): string {
  return v === null ? 'no entry' : JSON.stringify(sortKeys(v));
}

/** an upload: acknowledged, its rows are there with the hashes its answer gave (the files' bytes: checkProject) */
function uploadVerdict(run: ChainRun, after: ProjectCheck): { failure?: string; applied: boolean } {
  const answer = run.sent[0]?.answer as Array<{ id: number; hash: string }> | undefined;
  const missing = (answer ?? []).filter((f) => after.fileHashes.get(f.id) !== f.hash);
  if (!missing.length) return { applied: false };
  return { applied: false, failure: `${run.chain.key}: acknowledged upload without its files rows: ${missing.map((f) => `${f.id} (${f.hash}): ${after.fileHashes.get(f.id) ?? 'no row'}`).join(', ')}` };
}
