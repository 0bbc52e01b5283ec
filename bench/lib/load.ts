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
  statusCodeStats: Record<string, { count: number } | undefined>;
}

/** What a request of a load run is: its method, path, body, headers; `tag` names its kind (counted per tag). */
export interface SentRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  tag?: string;
}

/** One request of a load run; `setup` may vary it per request (autocannon's setupRequest). */
export interface LoadRequest extends SentRequest {
  method: 'GET' | 'POST' | 'PUT';
  setup?: (req: SentRequest) => SentRequest;
}

/** the same requests with these headers added (setup's too) */
export function withHeaders(r: LoadRequest, headers: Record<string, string>): LoadRequest {
  const { setup } = r;
  return { ...r, headers: { ...r.headers, ...headers }, ...(setup ? { setup: (req: SentRequest) => { const out = setup(req); return { ...out, headers: { ...out.headers, ...headers } }; } } : {}) };
}

export interface LoadOptions {
  url: string;
  request: LoadRequest;
  connections: number;
  /** seconds */
  duration: number;
  /** seconds one answer may take before it counts as a timeout (default 10) */
  timeout?: number;
  /** whether a 2xx answer failed all the same (GraphQL `errors`): counted as `failed` */
  failed?: (status: number, body: string) => boolean;
  /** 304 Not Modified is a good answer (conditional requests): not counted in non2xx */
  notModifiedOk?: boolean;
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
  /** 304 answers (good ones with `notModifiedOk`) */
  notModified: number;
  /** good answers (2xx, and 304 with `notModifiedOk`) per request tag, when the requests carry tags */
  tagged?: Record<string, number>;
  errors: number;
  timeouts: number;
  bytes: number;
  seconds: number;
}

export function runLoad(o: LoadOptions): Promise<LoadResult> {
  const base = new URL(o.url);
  const { setup, tag, ...req } = o.request;
  const withJson = <T extends SentRequest>(r: T): T => ({ ...r, headers: { 'content-type': 'application/json', ...(r.headers ?? {}) } });
  let failed = 0;
  const tagged: Record<string, number> = {};
  const check = o.failed;
  const good = (status: number) => (status >= 200 && status < 300) || (o.notModifiedOk === true && status === 304);
  const tags = tag !== undefined;
  // autocannon calls the onResponse of the request it was given (not of what setup returned) with the
  // connection's context, which setup received for this connection's request in flight (one per connection):
  // setup leaves the request's tag there
  const request: Record<string, unknown> = withJson(req);
  if (check || tags) {
    request.onResponse = (status: number, body: string, context?: { tag?: string }) => {
      if (check && status >= 200 && status < 300 && check(status, body)) failed++;
      else if (tags && good(status)) {
        const t = context?.tag ?? tag;
        tagged[t] = (tagged[t] ?? 0) + 1;
      }
    };
  }
  if (setup) {
    request.setupRequest = (r: SentRequest, context?: { tag?: string }) => {
      const { tag: t, ...out } = setup(r);
      if (context) context.tag = t;
      return withJson(out);
    };
  }
  const opts: Record<string, unknown> = {
    url: base.origin,
    connections: o.connections,
    timeout: o.timeout ?? 10,
    requests: [request],
    duration: o.duration,
  };
  return new Promise((resolve, reject) => {
    // answers still awaited when the duration is over are given their timeout, then the run is stopped
    const limitMs = (o.duration + (o.timeout ?? 10) + 10) * 1000;
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
        // autocannon counts every status outside 2xx, 304 included
        non2xx: res.non2xx - (o.notModifiedOk ? res.statusCodeStats['304']?.count ?? 0 : 0),
        failed,
        notModified: res.statusCodeStats['304']?.count ?? 0,
        ...(Object.keys(tagged).length ? { tagged } : {}),
        errors: res.errors,
        timeouts: res.timeouts,
        bytes: res.throughput.total,
        seconds,
      });
    });
  });
}
