// Value comparison of two JSON answers (key order ignored, as a client sees them): the first differences.
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

/** GET each path on both servers; the differences of the first path that differs, or [] when all agree. */
export async function compareServers(urlA: string, urlB: string, paths: string[]): Promise<{ path?: string; diffs: string[] }> {
  for (const p of paths) {
    const [a, b] = await Promise.all([fetchJson(urlA + p), fetchJson(urlB + p)]);
    const diffs = a.status !== b.status ? [`status ${a.status} vs ${b.status}`] : jsonDiff(a.body, b.body);
    if (diffs.length) return { path: p, diffs };
  }
  return { diffs: [] };
}

async function fetchJson(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}
