// Requests sent exactly as written. fetch parses its URL (WHATWG) and so rewrites `//`, `/./`, `..` and `\`
// before anything leaves: a test about how the server reads a path's spelling needs node:http (the path
// byte for byte) or, for what Node's client refuses to send, a socket (the request's bytes as given).
import http from 'node:http';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request through node:http with `path` unchanged (no normalisation, no encoding). */
export function rawRequest(baseUrl: string, o: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: o.path, method: o.method ?? 'GET', headers: o.headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${o.method ?? 'GET'} ${o.path}`)));
    req.on('error', reject);
    req.end(o.body);
  });
}

/**
 * The bytes of one request written to a new connection, the answer read until the server closes it
 * (send `Connection: close`). `endAfterWrite` half-closes the connection once the bytes are written.
 */
export function rawExchange(baseUrl: string, request: string | Buffer, o: { endAfterWrite?: boolean } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('timeout waiting for the answer')), 10_000);
    socket.on('connect', () => {
      socket.write(request);
      if (o.endAfterWrite) socket.end();
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    // the server's end of the answer (the socket is half-open: close our side too)
    socket.on('end', () => {
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString('latin1')));
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** status, headers (lower-cased names) and body of one HTTP/1.1 answer (Content-Length or chunked). */
function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: http.IncomingHttpHeaders = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = text.slice(end + 4);
  if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) {
    let out = '';
    for (let at = 0; ;) {
      const eol = body.indexOf('\r\n', at);
      const size = parseInt(body.slice(at, eol), 16);
      if (!size) break;
      out += body.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    body = out;
  }
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}
