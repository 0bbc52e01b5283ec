// Requests Node's HTTP parser rejects before any route runs (a byte not allowed in a URL, headers over
// the size limit, a timeout) still get v4's error envelope, so a client has one error shape to read.
// (v4 leaves these to Node, which answers with an empty body.)
import http from 'node:http';
import type { Socket } from 'node:net';

export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const reason = http.STATUS_CODES[status] ?? 'Bad Request';
  const name = status === 408 ? 'RequestTimeoutError' : status === 431 ? 'RequestHeaderFieldsTooLargeError' : 'BadRequestError';
  const body = JSON.stringify({ data: null, error: { status, name, message: reason, details: {} } });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}
