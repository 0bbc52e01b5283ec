// Answers the HTTP layers give before any route runs, in v4's error envelope, so a client has one error shape
// to read: requests Node's HTTP parser rejects (a byte not allowed in a URL, headers over the size limit, a
// timeout), an `Expect` Node cannot meet, and fastify's own rejections (FST_ERR_*: a malformed escape, an
// over-long path parameter, a body it will not parse). v4 leaves the first two to Node, which answers with
// an empty body.
import type http from 'node:http';
import type { Socket } from 'node:net';
import { ApplicationError, BadRequestError, NotFoundError, PayloadTooLargeError, httpErrorBody } from '../errors';

function envelopeText(status: number): string {
  return JSON.stringify(httpErrorBody(status, undefined).body);
}

export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = envelopeText(status);
  const { message } = httpErrorBody(status, undefined).body.error;
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${message}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/** http.Server 'checkExpectation': an `Expect` other than 100-continue, which Node answers 417 with no body */
export function expectationFailed(_req: http.IncomingMessage, res: http.ServerResponse): void {
  const body = envelopeText(417);
  res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * An error fastify raised, as v4 answers the same request: a path escape that is not UTF-8 is koa-router's
 * 400 "failed to decode"; a path parameter over the length limit names nothing, a 404 as for any unknown id
 * (v4 has no limit); a body over the limit is v4's 413. Any other FST_* error of a 4xx status keeps its
 * status and message under v4's (http-errors') name for that status. Everything else is left as it is.
 */
export function frameworkError(err: unknown): unknown {
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown } | null;
  if (typeof e?.code !== 'string' || !e.code.startsWith('FST_')) return err;
  if (e.code === 'FST_ERR_BAD_URL') return new BadRequestError('failed to decode');
  if (e.code === 'FST_ERR_MAX_PARAM_LENGTH') return new NotFoundError('Not Found');
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new PayloadTooLargeError('request entity too large');
  const status = e.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return err;
  const { error } = httpErrorBody(status, typeof e.message === 'string' && e.message !== '' ? e.message : undefined).body;
  return Object.assign(new ApplicationError(error.message), { status, name: error.name });
}
