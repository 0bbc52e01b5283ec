// Value comparison of two JSON answers (key order ignored, as a client sees them): the first differences.
import type { InjectRequest } from '../cases';

export function jsonDiff(a: unknown, b: unknown, path = '$', out: string[] = [], limit = 5): string[] {
  if (out.length >= limit) return out;
  if (a === b) return out;
  const ta = Array.isArray(a) ? 'array' : a === null ? 'null' : typeof a;
  const tb = Array.isArray(b) ? 'array' : b === null ? 'null' : typeof b;
  if (ta !== tb) {
    out.push(`${path}: ${short(a)} vs ${short(b)}`);
    return out;
  }
  if (ta === 'array') {
    const x = a as unknown[], y = b as unknown[];
    if (x.length !== y.length) out.push(`${path}: ${x.length} items vs ${y.length}`);
    for (let i = 0; i < Math.min(x.length, y.length); i++) jsonDiff(x[i], y[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (ta === 'object') {
    const x = a as Record<string, unknown>, y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!(k in x)) out.push(`${path}.${k}: missing vs ${short(y[k])}`);
      else if (!(k in y)) out.push(`${path}.${k}: ${short(x[k])} vs missing`);
      else jsonDiff(x[k], y[k], `${path}.${k}`, out, limit);
      if (out.length >= limit) break;
    }
    return out;
  }
  out.push(`${path}: ${short(a)} vs ${short(b)}`);
  return out;
}

function short(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** How a request is named in findings: its method and URL, and a GraphQL request's variables. */
export function describeRequest(r: InjectRequest): string {
  const vars = (r.payload as { variables?: unknown } | undefined)?.variables;
  return `${r.method === 'GET' ? '' : `${r.method} `}${r.url}${vars === undefined ? '' : ` ${short(vars)}`}`;
}

/** a server whose answers are compared with the reference's; `exactBytes`: equal values are not enough, the bodies must be the same bytes */
export interface ComparedServer {
  name: string;
  url: string;
  exactBytes?: boolean;
}

/**
 * Sends each request to the reference server once (a write sample must reach it once) and to each other
 * server; per other server, the differences of the first request whose answers differ, or [] when all agree.
 * `compared` picks what must agree (the whole body by default; GraphQL: lib/graphql.ts).
 */
export async function compareServers(reference: string, others: ComparedServer[], requests: InjectRequest[], compared: (body: unknown) => unknown = (b) => b): Promise<Map<string, { request?: string; diffs: string[] }>> {
  const out = new Map<string, { request?: string; diffs: string[] }>(others.map((s) => [s.name, { diffs: [] }]));
  for (const r of requests) {
    const a = await fetchJson(reference, r);
    for (const s of others) {
      if (out.get(s.name)!.diffs.length) continue;
      let b: Awaited<ReturnType<typeof fetchJson>>;
      try {
        b = await fetchJson(s.url, r);
      } catch (err) {
        // a server too slow for the limit (real Strapi on a large table): a finding, not the end of the run
        out.set(s.name, { request: describeRequest(r), diffs: [`no answer: ${(err as Error).message}`] });
        continue;
      }
      let diffs = a.status !== b.status ? [`status ${a.status} vs ${b.status}`] : jsonDiff(compared(a.body), compared(b.body));
      if (!diffs.length && s.exactBytes && a.text !== b.text) diffs = [`the same values in other bytes (${a.text.length} vs ${b.text.length} characters; first difference at ${firstDifference(a.text, b.text)})`];
      if (diffs.length) out.set(s.name, { request: describeRequest(r), diffs });
    }
  }
  return out;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

export async function fetchJson(base: string, r: InjectRequest): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(base + r.url, {
    method: r.method,
    body: r.payload === undefined ? undefined : JSON.stringify(r.payload),
    headers: { ...(r.payload === undefined ? {} : { 'content-type': 'application/json' }), ...r.headers },
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text), text };
  } catch {
    return { status: res.status, body: text, text };
  }
}
