// Differential comparison with real Strapi v4 (moved in from shared/tools/strapi-diff.mjs, the rule of its
// --strict-ts being the only one): send the same requests, in the same order, to real Strapi (A) and to
// Tessera (B), or replay a recording of A's answers, and list every path where the answers differ.
//
//   npx tsx test/helpers/strapi-diff.ts --a URL --record GOLDEN.jsonl REQUESTS.json   record real Strapi's answers
//   npx tsx test/helpers/strapi-diff.ts --golden GOLDEN.jsonl --b URL REQUESTS.json   compare a server with a recording
//   npx tsx test/helpers/strapi-diff.ts --a URL --b URL REQUESTS.json                 compare two servers
//        [--token-a FILE_OR_VALUE] [--token-b FILE_OR_VALUE] [--only REGEX] [--verbose]
//        [--deviations FILE]        differences B keeps on purpose (format: golden.ts): only others are reported
//        [--write-deviations FILE]  rewrite FILE with B's current values at the paths its entries cover
// Ends with a line 'N same, N different'; exit 0 when nothing differs (outside the deviations).
//
// REQUESTS.json: an array (or JSON lines) of
//   { "name": "list-populate", "method": "GET", "url": "/api/articles?populate=*",
//     "auth": "token" | "none" | "jwt",            (default "token"; "jwt" uses the last JWT each server returned)
//     "body": { ... } | "raw string",               (JSON unless a string)
//     "files": { "files": [ { "name": "a.png", "type": "image/png", "base64": "..." } ] },  (multipart; other fields in "fields")
//     "fields": { "fileInfo": "{\"alternativeText\":\"x\"}" }, "headers": { ... },
//     "fieldsFirst": true,                          (multipart parts: fields before files, as the GraphQL
//                                                    multipart spec needs: operations, map, then the files)
//     "redirect": "manual" }                         (a 3xx is not followed: its answer is recorded as
//                                                    { "redirect": { "to": address, "query": {...} } }, a `state`
//                                                    in the query as "<state>"; koa's courtesy body left out)
// GOLDEN.jsonl: one { name, status, body } per request, the body normalised as below.
//
// Normalised on both sides: JWTs, upload hashes and upload urls, and the server's clock readings (the values of
// createdAt, updatedAt, publishedAt, lastUsedAt, expiresAt unless a request sent that exact value). Every other
// datetime is data and compared as it is. Key order is ignored, array order kept.
import fs from 'node:fs';

export interface DiffRequest {
  name?: string;
  method?: string;
  url: string;
  auth?: 'token' | 'none' | 'jwt';
  body?: unknown;
  files?: Record<string, Array<{ name: string; type: string; base64: string }>>;
  fields?: Record<string, string>;
  fieldsFirst?: boolean;
  headers?: Record<string, string>;
  redirect?: 'manual';
}

export interface Answer {
  name: string;
  status: number;
  body: unknown;
}

/** one differing leaf: `status`, `$` (the whole body) or a body path such as `.data[0].id` */
export interface Difference {
  path: string;
  /** A's (the recording's) value; undefined where A has nothing at the path */
  expected: unknown;
  /** B's (Tessera's) value; ABSENT where B has nothing at the path */
  actual: unknown;
}

/** stands for "no value at this path" (a missing key or array element) in B's answer */
export const ABSENT = Object.freeze({ $absent: true });

export function readRequests(file: string): DiffRequest[] {
  return parseList<DiffRequest>(fs.readFileSync(file, 'utf8'));
}

export function readGolden(file: string): Answer[] {
  return parseList<Answer>(fs.readFileSync(file, 'utf8'));
}

function parseList<T>(text: string): T[] {
  const t = text.trim();
  return t.startsWith('[') ? (JSON.parse(t) as T[]) : t.split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
}

export function requestName(r: DiffRequest, i: number): string {
  return r.name || `${i + 1} ${r.method || 'GET'} ${r.url}`;
}

const JWT = /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** the server's clock readings: the only datetimes masked */
const CLOCK = new Set(['createdAt', 'updatedAt', 'publishedAt', 'lastUsedAt', 'expiresAt']);

/** The normalisation of one request list's answers (a clock key holding a value some request sent is data). */
export function normaliser(requests: DiffRequest[]): (body: unknown) => unknown {
  const sentTs = new Set(requests.flatMap((r) => JSON.stringify(r.body ?? '').match(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-][\d:]+)/g) || []));
  const norm = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') {
      if (JWT.test(v)) return '<jwt>';
      if (key !== undefined && CLOCK.has(key) && TS.test(v) && !sentTs.has(v)) return '<ts>';
      if (key === 'hash') return '<hash>';
      if ((key === 'url' || key === 'path') && v.startsWith('/uploads/')) return '/uploads/<hash>' + (v.match(/\.\w+$/) || [''])[0];
      return v;
    }
    if (Array.isArray(v)) return v.map((x) => norm(x, key));
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (k !== 'stacktrace' && !(key === 'extensions' && k === 'exception')) o[k] = norm(x, k);
      return o;
    }
    return v;
  };
  return (body) => norm(body);
}

/** Every differing leaf of two answers, none left out: status first, then the body in document order. */
export function differences(a: Answer, b: Answer): Difference[] {
  const out: Difference[] = a.status === b.status ? [] : [{ path: 'status', expected: a.status, actual: b.status }];
  diffValues(a.body, b.body, '', out);
  return out;
}

function diffValues(a: unknown, b: unknown, p: string, out: Difference[]): void {
  if (a === b) return;
  const object = (v: unknown) => v !== null && typeof v === 'object';
  if (!object(a) || !object(b) || Array.isArray(a) !== Array.isArray(b)) {
    out.push({ path: p || '$', expected: a, actual: b === undefined ? ABSENT : b });
    return;
  }
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    for (let i = 0; i < Math.max(a.length, bs.length); i++) diffValues(a[i], bs[i], `${p}[${i}]`, out);
    return;
  }
  const ao = a as Record<string, unknown>, bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    diffValues(Object.hasOwn(ao, k) ? ao[k] : undefined, Object.hasOwn(bo, k) ? bo[k] : undefined, `${p}.${k}`, out);
  }
}

/** JSON values equal regardless of key order */
export function sameValue(a: unknown, b: unknown): boolean {
  const out: Difference[] = [];
  diffValues(a, b, '', out);
  return out.length === 0;
}

export function describeDifference(d: Difference): string {
  return `${d.path}: A=${d.expected === undefined ? '(absent)' : JSON.stringify(d.expected)} B=${d.actual === ABSENT ? '(absent)' : JSON.stringify(d.actual)}`;
}

/** Sends requests to one server as the request list says, remembering the last JWT it answered with. */
export class Client {
  private jwt: string | null = null;
  constructor(private readonly base: string, private readonly token: string) {}

  async send(r: DiffRequest): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { ...(r.headers || {}) };
    const auth = r.auth || 'token';
    if (auth === 'token' && this.token) headers.authorization = `Bearer ${this.token}`;
    if (auth === 'jwt' && this.jwt) headers.authorization = `Bearer ${this.jwt}`;
    let body: FormData | string | undefined;
    if (r.files) {
      const form = (body = new FormData());
      const appendFields = () => {
        for (const [k, v] of Object.entries(r.fields || {})) form.append(k, v);
      };
      if (r.fieldsFirst) appendFields();
      for (const [field, list] of Object.entries(r.files)) for (const f of list) form.append(field, new Blob([Buffer.from(f.base64, 'base64')], { type: f.type }), f.name);
      if (!r.fieldsFirst) appendFields();
    } else if (r.body !== undefined) {
      body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.base + r.url, { method: r.method || 'GET', headers, body, redirect: r.redirect ?? 'follow' });
    const location = res.headers.get('location');
    if (r.redirect === 'manual' && location !== null) return { status: res.status, body: { redirect: redirectTarget(location) } };
    const raw = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = { __text: raw.slice(0, 200) };
    }
    this.jwt = findJwt(json) ?? this.jwt;
    return { status: res.status, body: json };
  }
}

/** a Location as address and query; the state a provider sign-in sends is random, so it is masked */
function redirectTarget(location: string): { to: string; query: Record<string, string> } {
  const u = new URL(location, 'relative:/');
  const query = Object.fromEntries(u.searchParams);
  if ('state' in query) query.state = '<state>';
  return { to: u.protocol === 'relative:' ? u.pathname : `${u.origin}${u.pathname}`, query };
}

function findJwt(v: unknown): string | null {
  if (typeof v === 'string') return JWT.test(v) ? v : null;
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) {
      const j = findJwt(x);
      if (j) return j;
    }
  }
  return null;
}

export function readToken(v: string | undefined): string {
  return v && fs.existsSync(v) ? fs.readFileSync(v, 'utf8').trim() : v || '';
}

export interface ReplayResult {
  name: string;
  /** the recording's answer; undefined when the recording is shorter than the request list */
  expected: Answer | undefined;
  actual: Answer;
  differences: Difference[];
}

/** Replays `requests` against B in order and compares each answer with `expected[i]` (a recording, or a live A). */
export async function replay(
  requests: DiffRequest[],
  b: Client,
  expected: Answer[] | ((r: DiffRequest, name: string) => Promise<Answer>),
): Promise<ReplayResult[]> {
  const norm = normaliser(requests);
  const results: ReplayResult[] = [];
  for (const [i, r] of requests.entries()) {
    const name = requestName(r, i);
    const a = Array.isArray(expected) ? expected[i] : await expected(r, name);
    const got = await b.send(r);
    const actual: Answer = { name, status: got.status, body: norm(got.body) };
    const diffs = !a ? [] : a.name !== name ? [{ path: 'name', expected: a.name, actual: name }] : differences(a, actual);
    results.push({ name, expected: a, actual, differences: diffs });
  }
  return results;
}

// ---- deviations: the differences Tessera keeps on purpose -------------------------------------------------

/**
 * test/golden/<name>.deviations.json: { "<request name>": { "why": "...", "expect": { "<path>": <B's value> } } }.
 * Each differing leaf of that request's answer is listed with the exact value Tessera answers there
 * (`status` for the status, ABSENT where Tessera has no value); nothing else may differ, and every listed
 * path must still differ with exactly that value. `paths` (older files: prefixes) is accepted only as input
 * to rewriteDeviations.
 */
export interface Deviation {
  why: string;
  expect?: Record<string, unknown>;
  paths?: string[];
}
export type Deviations = Record<string, Deviation>;

export function readDeviations(file: string): Deviations {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Deviations) : {};
}

const show = (v: unknown) => (v === ABSENT || sameValue(v, ABSENT) ? '(absent)' : JSON.stringify(v));

/** What is wrong in a replay, given the deviations: one text per request (empty when all is as listed). */
export function deviationProblems(results: ReplayResult[], deviations: Deviations, file = 'the deviations file'): string[] {
  const problems: string[] = [];
  const names = new Set(results.map((r) => r.name));
  for (const r of results) {
    const dev = deviations[r.name];
    if (!r.expected) {
      problems.push(`${r.name}\n    no recorded answer (the recording is shorter than the request list)`);
      continue;
    }
    if (dev && !dev.expect) {
      problems.push(`${r.name}\n    listed in ${file} without "expect" (write it: GOLDEN_WRITE_DEVIATIONS=1, test/helpers/golden.ts)`);
      continue;
    }
    const expect = dev?.expect ?? {};
    const lines: string[] = [];
    const differing = new Set<string>();
    for (const d of r.differences) {
      differing.add(d.path);
      if (!Object.hasOwn(expect, d.path)) lines.push(describeDifference(d));
      else if (!sameValue(expect[d.path], d.actual)) lines.push(`${d.path}: Tessera answers ${show(d.actual)}, ${file} expects ${show(expect[d.path])} (A=${show(d.expected)})`);
    }
    for (const p of Object.keys(expect)) {
      if (!differing.has(p)) lines.push(`${p}: listed in ${file} but answered as recorded (remove it)`);
    }
    if (lines.length) problems.push(`${r.name}\n    ${lines.join('\n    ')}`);
  }
  for (const name of Object.keys(deviations)) {
    if (!names.has(name)) problems.push(`${name}: listed in ${file} but no request has that name`);
  }
  return problems;
}

const covers = (prefix: string, p: string) => p === prefix || p.startsWith(`${prefix}.`) || p.startsWith(`${prefix}[`);

/**
 * The deviations rewritten from a replay, keeping each entry's "why": an entry takes Tessera's current value at
 * every differing path its old `expect` keys or `paths` cover (equal, or a prefix of it); all differing paths
 * of its request when `all` is set or it lists none. Entries whose request now answers as recorded are
 * dropped; one whose request differs only elsewhere stays as it was; differences of requests without an entry
 * are not added (they stay problems).
 */
export function rewriteDeviations(results: ReplayResult[], old: Deviations, all = false): { deviations: Deviations; dropped: string[] } {
  const deviations: Deviations = {};
  const dropped: string[] = [];
  for (const r of results) {
    const dev = old[r.name];
    if (!dev) continue;
    const prefixes = dev.paths ?? Object.keys(dev.expect ?? {});
    if (!r.differences.length) {
      dropped.push(r.name);
      continue;
    }
    const taken = r.differences.filter((d) => all || prefixes.length === 0 || prefixes.some((p) => covers(p, d.path)));
    if (!taken.length) {
      // it differs elsewhere now: kept as it was, for whoever changed it to rewrite (deviationProblems reports it)
      deviations[r.name] = dev;
      continue;
    }
    deviations[r.name] = { why: dev.why, expect: Object.fromEntries(taken.map((d) => [d.path, d.actual === ABSENT ? { $absent: true } : d.actual])) };
  }
  // entries naming no request are kept as they are: deviationProblems reports them
  for (const [name, dev] of Object.entries(old)) if (!results.some((r) => r.name === name)) deviations[name] = dev;
  return { deviations, dropped };
}

export function writeDeviations(file: string, deviations: Deviations): void {
  if (Object.keys(deviations).length === 0) fs.rmSync(file, { force: true });
  else fs.writeFileSync(file, `${JSON.stringify(deviations, null, 1)}\n`);
}

// ---- command line ---------------------------------------------------------------------------------------

async function main(argv: string[]): Promise<number> {
  const flags = new Set(['--verbose']);
  const opt = (n: string) => {
    const i = argv.indexOf(n);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const file = argv.filter((x, i) => !x.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--') && !flags.has(argv[i - 1]))).pop();
  const A = opt('--a'), B = opt('--b'), record = opt('--record'), golden = opt('--golden');
  if (!file || !((A && (B || record)) || (golden && B))) {
    console.error('usage: strapi-diff.ts (--a URL --b URL | --a URL --record OUT | --golden IN --b URL) [--token-a T] [--token-b T] [--only RE] [--verbose] [--deviations F | --write-deviations F] REQUESTS.json');
    return 2;
  }
  const requests = readRequests(file);
  const tokenA = readToken(opt('--token-a'));
  const tokenB = readToken(opt('--token-b') ?? opt('--token-a'));
  const norm = normaliser(requests);
  const clientA = A ? new Client(A, tokenA) : null;
  const fromA = async (r: DiffRequest, name: string): Promise<Answer> => {
    const got = await clientA!.send(r);
    return { name, status: got.status, body: norm(got.body) };
  };

  if (record) {
    const lines: string[] = [];
    for (const [i, r] of requests.entries()) lines.push(JSON.stringify(await fromA(r, requestName(r, i))));
    fs.writeFileSync(record, lines.map((l) => `${l}\n`).join(''));
    console.log(`recorded ${lines.length} answers to ${record}`);
    return 0;
  }

  const only = opt('--only') ? new RegExp(opt('--only')!) : null;
  const verbose = argv.includes('--verbose');
  const results = (await replay(requests, new Client(B!, tokenB), golden ? readGolden(golden) : fromA)).filter((r) => !only || only.test(r.name));
  const write = opt('--write-deviations');
  const devFile = write ?? opt('--deviations');
  let deviations: Deviations = devFile ? readDeviations(devFile) : {};
  if (write) {
    const next = rewriteDeviations(results, deviations);
    deviations = next.deviations;
    writeDeviations(write, deviations);
    for (const name of next.dropped) console.log(`dropped ${name} (answered as recorded)`);
  }
  let same = 0;
  for (const r of results) {
    const own = deviationProblems([r], devFile ? { ...(deviations[r.name] ? { [r.name]: deviations[r.name] } : {}) } : {}, devFile);
    if (own.length === 0) {
      same++;
      if (verbose) console.log(`same  ${r.name}`);
    } else {
      console.log(`DIFF  ${own[0].replace(/\n {4}/g, '\n      ')}`);
    }
  }
  console.log(`${same} same, ${results.length - same} different`);
  return same === results.length ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    console.error(err);
    process.exit(2);
  });
}
