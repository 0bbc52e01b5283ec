// Bounded load runs with autocannon (programmatic): fixed connections and duration, a per-request
// timeout, and a hard stop in case the server stalls.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>, cb: (err: Error | null, res: AutocannonResult) => void) => { stop(): void };

interface AutocannonResult {
  start: Date;
  finish: Date;
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  requests: { total: number; average: number };
  throughput: { total: number };
}

/** One request of a load run; `setup` may vary it per request (autocannon's setupRequest). */
export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  setup?: (req: { method: string; path: string; body?: string; headers?: Record<string, string> }) => { method: string; path: string; body?: string; headers?: Record<string, string> };
}

export interface LoadOptions {
  url: string;
  request: LoadRequest;
  connections: number;
  /** seconds */
  duration: number;
  /** whether a 2xx answer failed all the same (GraphQL `errors`): counted as `failed` */
  failed?: (status: number, body: string) => boolean;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  /** 2xx answers `failed` found failed */
  failed: number;
  errors: number;
  timeouts: number;
  bytes: number;
  seconds: number;
}

export function runLoad(o: LoadOptions): Promise<LoadResult> {
  const base = new URL(o.url);
  const { setup, ...req } = o.request;
  const request: Record<string, unknown> = { ...req, headers: { 'content-type': 'application/json', ...(req.headers ?? {}) } };
  let failed = 0;
  const check = o.failed;
  const onResponse = check ? (status: number, body: string) => { if (status >= 200 && status < 300 && check(status, body)) failed++; } : undefined;
  if (onResponse) request.onResponse = onResponse;
  // autocannon calls the onResponse of the request as setup returned it
  if (setup) request.setupRequest = (r: Parameters<NonNullable<LoadRequest['setup']>>[0]) => (onResponse ? { ...setup(r), onResponse } : setup(r));
  const opts: Record<string, unknown> = {
    url: base.origin,
    connections: o.connections,
    timeout: 10,
    requests: [request],
    duration: o.duration,
  };
  return new Promise((resolve, reject) => {
    const limitMs = (o.duration + 20) * 1000;
    // eslint-disable-next-line prefer-const
    let instance: { stop(): void } | undefined;
    const guard = setTimeout(() => instance?.stop(), limitMs);
    instance = autocannon(opts, (err, res) => {
      clearTimeout(guard);
      if (err) return reject(err);
      const seconds = Math.max(0.001, (res.finish.getTime() - res.start.getTime()) / 1000);
      resolve({
        rps: res.requests.total / seconds,
        p50: res.latency.p50,
        p99: res.latency.p99,
        max: res.latency.max,
        requests: res.requests.total,
        non2xx: res.non2xx,
        failed,
        errors: res.errors,
        timeouts: res.timeouts,
        bytes: res.throughput.total,
        seconds,
      });
    });
  });
}
