// Requests to an OAuth provider (token exchange, profile), as v4's clients (grant, purest over
// request-compose) make them: the body parsed as JSON or form data by its content type, a 4xx/5xx answer an
// error named `<status> <status text>` with the parsed body attached. Bounded: a provider that does not answer
// within the timeout, or answers more than the size limit, is an error rather than a hung sign-in.
import qs from 'qs';

export const PROVIDER_TIMEOUT_MS = 10_000;
export const PROVIDER_MAX_BYTES = 1 << 20;

export class ProviderHttpError extends Error {
  override name = 'ProviderHttpError';
  constructor(message: string, readonly status?: number, readonly body?: unknown) {
    super(message);
  }
}

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** sent as application/x-www-form-urlencoded */
  form?: Record<string, string | undefined>;
}

export async function providerRequest(url: string, r: ProviderRequest = {}): Promise<unknown> {
  const headers: Record<string, string> = { 'user-agent': 'tessera', ...(r.headers ?? {}) };
  let body: string | undefined;
  if (r.form) {
    body = new URLSearchParams(Object.entries(r.form).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  let res: Response;
  try {
    res = await fetch(url, { method: r.method ?? 'GET', headers, body, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (err) {
    const e = err as Error;
    throw new ProviderHttpError(e.name === 'TimeoutError' ? `the provider did not answer within ${PROVIDER_TIMEOUT_MS / 1000} s` : e.message);
  }
  const parsed = parse(await readLimited(res), res.headers.get('content-type') ?? '');
  if (res.status >= 400) throw new ProviderHttpError(`${res.status} ${res.statusText}`, res.status, parsed);
  return parsed;
}

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > PROVIDER_MAX_BYTES) throw new ProviderHttpError(`the provider's answer is larger than ${PROVIDER_MAX_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** grant's parse: JSON or form data by content type; anything else JSON if it parses, else form data */
function parse(text: string, type: string): unknown {
  const json = () => JSON.parse(text) as unknown;
  if (/json|javascript/.test(type)) return attempt(json, text);
  if (/application\/x-www-form-urlencoded/.test(type)) return qs.parse(text);
  return attempt(json, () => qs.parse(text));
}

function attempt(fn: () => unknown, fallback: unknown): unknown {
  try {
    return fn();
  } catch {
    return typeof fallback === 'function' ? (fallback as () => unknown)() : fallback;
  }
}
