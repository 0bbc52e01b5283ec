// The bare limit (issue 17): a plain node:http server that sends Tessera's answers as stored bytes. At start it
// asks Tessera (--from) once for each request of the file (--requests: a JSON list of { method, url, body?,
// headers? }) and keeps the status, every header Tessera sent and the body, by method + url + body. Then every request is a
// lookup and a write of those bytes: no routing, parsing, auth or hashing. This is what sending those answers
// costs on this machine, so a response cache's hit path can be measured against it. `If-None-Match` with the
// stored ETag gets a 304, as from Tessera.
//
//   npx tsx bench/floor/bare-http.ts --from http://127.0.0.1:PORT --requests requests.json [--port 0] [--host 127.0.0.1]
import fs from 'node:fs';
import http from 'node:http';

export interface BareRequest {
  method: string;
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

interface Kept {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
  etag?: string;
}

/** headers node:http writes itself, per answer or per connection */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

const keyOf = (method: string, url: string, body: string) => `${method} ${url}\n${body}`;

/** RFC 9110 If-None-Match, compared weakly, as Tessera compares it */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((part) => {
    const tag = part.trim();
    return (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}

/** Tessera's answers to `requests`, fetched once each */
export async function fetchAnswers(from: string, requests: BareRequest[]): Promise<Map<string, Kept>> {
  const kept = new Map<string, Kept>();
  for (const r of requests) {
    const key = keyOf(r.method, r.url, r.body ?? '');
    if (kept.has(key)) continue;
    const res = await fetch(from + r.url, {
      method: r.method,
      body: r.body,
      headers: { ...(r.body === undefined ? {} : { 'content-type': 'application/json' }), ...r.headers },
      signal: AbortSignal.timeout(30_000),
    });
    const body = Buffer.from(await res.arrayBuffer());
    const etag = res.headers.get('etag') ?? undefined;
    // every header Tessera sent (v4's security headers, CORS, ETag, Cache-Control, ...): the same bytes on the wire;
    // node writes its own Date and connection headers
    const headers: Kept['headers'] = {};
    for (const [name, value] of res.headers) if (!PER_CONNECTION.has(name)) headers[name] = value;
    headers['content-length'] = body.length;
    kept.set(key, { status: res.status, headers, body, etag });
  }
  return kept;
}

const NOT_KEPT = Buffer.from(JSON.stringify({ data: null, error: { status: 404, name: 'NotFoundError', message: 'not kept by the bare server', details: {} } }));

export function bareServer(kept: Map<string, Kept>): http.Server {
  const answer = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const e = kept.get(keyOf(req.method ?? 'GET', req.url ?? '/', body));
    if (!e) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'content-length': NOT_KEPT.length });
      res.end(NOT_KEPT);
    } else if (e.etag && matches(req.headers['if-none-match'], e.etag)) {
      const { 'content-type': _type, 'content-length': _length, ...rest } = e.headers;
      res.writeHead(304, rest);
      res.end();
    } else {
      res.writeHead(e.status, e.headers);
      res.end(e.body);
    }
  };
  return http.createServer((req, res) => {
    // a request without a body is answered at once; a body (GraphQL) is read first, as it is part of the key
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      req.resume();
      return answer(req, res, '');
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString()));
  });
}

async function main(argv: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const from = opt('from');
  const file = opt('requests');
  if (!from || !file) throw new Error('usage: bare-http.ts --from http://host:port --requests requests.json [--port N] [--host H]');
  const kept = await fetchAnswers(from, JSON.parse(fs.readFileSync(file, 'utf8')) as BareRequest[]);
  const server = bareServer(kept);
  server.listen(Number(opt('port') ?? 0), opt('host') ?? '127.0.0.1', () => {
    const a = server.address();
    console.log(`bare node:http listening on ${typeof a === 'object' && a ? `http://${a.address}:${a.port}` : a}, ${kept.size} answers kept`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
