// Issue #20, part 5: every answer in v4's error envelope `{ data: null, error: { status, name, message,
// details } }`. The HTTP framework (fastify) has answers of its own (`{"code":"FST_ERR_BAD_URL",...}`):
// this file walks fastify's error codes, triggers each one a client can cause, and checks the envelope;
// each code a client cannot cause says why. A fastify upgrade that adds a code fails here until it is placed.
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { errorCodes } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpErrorBody, toErrorBody } from '../../src/errors';
import { frameworkError } from '../../src/server/client-error';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';
import { rawExchange, rawRequest, type RawResponse } from '../helpers/raw-http';

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureApp(true);
});
afterAll(async () => {
  await running?.stop();
});

interface Trigger {
  what: string;
  /** sent with node:http (exact path), or as raw bytes when it is a string */
  send: { method?: string; path: string; headers?: Record<string, string>; body?: string } | string;
  /** raw bytes only: half-close the connection once they are written (the body ends early) */
  halfClose?: boolean;
  status: number;
  name: string;
  message?: string | RegExp;
}

const json = { 'content-type': 'application/json' };
const big = 'x'.repeat(2 * 1024 * 1024);
const longId = 'a'.repeat(300);

/** fastify's 4xx codes and those a request could reach: how a client triggers each, or why none can */
const CLIENT_CODES: Record<string, Trigger[] | string> = {
  FST_ERR_NOT_FOUND: [
    { what: 'an unknown page', send: { path: '/no-such-page' }, status: 404, name: 'NotFoundError', message: 'Not Found' },
    { what: 'a method no route has', send: { method: 'PROPFIND', path: '/api/authors' }, status: 404, name: 'NotFoundError' },
  ],
  FST_ERR_VALIDATION: 'no route declares a JSON schema (server/schema-compilers.ts)',
  FST_ERR_CTP_BODY_TOO_LARGE: [
    { what: 'a JSON body over the limit', send: { method: 'POST', path: '/api/authors', headers: json, body: JSON.stringify({ data: { name: big } }) }, status: 413, name: 'PayloadTooLargeError' },
    { what: 'a text body over the limit', send: { method: 'POST', path: '/api/authors', headers: { 'content-type': 'text/plain' }, body: big }, status: 413, name: 'PayloadTooLargeError' },
    { what: 'a form body over the limit', send: { method: 'POST', path: '/api/authors', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a=${big}` }, status: 413, name: 'PayloadTooLargeError' },
  ],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    { what: 'an unsupported content type', send: { method: 'POST', path: '/api/authors', headers: { 'content-type': 'application/xml' }, body: '<a/>' }, status: 415, name: 'UnsupportedMediaTypeError' },
    { what: 'a malformed content type', send: { method: 'POST', path: '/api/authors', headers: { 'content-type': ';;;' }, body: 'x' }, status: 415, name: 'UnsupportedMediaTypeError' },
    { what: 'a body without a content type', send: { method: 'PUT', path: '/api/authors/1', headers: { 'content-length': '1' }, body: 'x' }, status: 415, name: 'UnsupportedMediaTypeError' },
  ],
  // Node's parser delivers exactly Content-Length bytes: a shorter body or conflicting lengths are its own
  // rejections (client-error.ts), which must be in the envelope too
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    { what: 'a body shorter than its Content-Length', send: 'POST /api/authors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\nConnection: close\r\n\r\n{}', halfClose: true, status: 400, name: 'BadRequestError' },
    { what: 'two different Content-Length headers', send: 'POST /api/authors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}', status: 400, name: 'BadRequestError' },
  ],
  // Tessera's own JSON parser replaces fastify's: v4's answers (co-body's SyntaxError, the missing `data`)
  FST_ERR_CTP_EMPTY_JSON_BODY: [
    { what: 'an empty JSON body', send: { method: 'POST', path: '/api/authors', headers: { ...json, 'content-length': '0' }, body: '' }, status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body' },
  ],
  FST_ERR_CTP_INVALID_JSON_BODY: [
    { what: 'a body that is not JSON', send: { method: 'POST', path: '/api/authors', headers: json, body: '{bad' }, status: 400, name: 'SyntaxError' },
  ],
  FST_ERR_CTP_INSTANCE_ALREADY_STARTED: 'start-up only: a content-type parser added after the server started',
  FST_ERR_BAD_URL: [
    { what: 'an id that is not UTF-8', send: { path: '/api/articles/%ff' }, status: 400, name: 'BadRequestError', message: 'failed to decode' },
    { what: 'an overlong UTF-8 dot in an uploads path', send: { path: '/uploads/%c0%ae%c0%ae/x' }, status: 400, name: 'BadRequestError', message: 'failed to decode' },
    { what: 'a bad escape in a page path', send: { path: '/%ff' }, status: 400, name: 'BadRequestError', message: 'failed to decode' },
    { what: 'a bad escape under the API prefix, with a query', send: { path: '/api/%ff?x=1' }, status: 400, name: 'BadRequestError', message: 'failed to decode' },
    { what: 'a bad escape in a DELETE', send: { method: 'DELETE', path: '/api/articles/%e0%80' }, status: 400, name: 'BadRequestError', message: 'failed to decode' },
  ],
  FST_ERR_MAX_PARAM_LENGTH: [
    { what: 'a 300-character id', send: { path: `/api/articles/${longId}` }, status: 404, name: 'NotFoundError', message: 'Not Found' },
    { what: 'a 300-digit id', send: { path: `/api/articles/${'9'.repeat(300)}?populate=*` }, status: 404, name: 'NotFoundError', message: 'Not Found' },
    { what: 'a 300-character id in a PUT', send: { method: 'PUT', path: `/api/articles/${longId}`, headers: json, body: '{"data":{}}' }, status: 404, name: 'NotFoundError', message: 'Not Found' },
  ],
  FST_ERR_ASYNC_CONSTRAINT: 'no route has an asynchronous constraint',
  FST_ERR_INVALID_URL: 'raised for a route declared or injected with a url that is not a string, never for a request',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: [
    { what: 'a QUERY request without a content type', send: 'QUERY /api/authors HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 400, name: 'BadRequestError' },
  ],
  FST_ERR_ROUTE_MISSING_CONTENT: 'declared by fastify 5 but raised nowhere',
  FST_ERR_HANDLER_TIMEOUT: 'no route sets handlerTimeout',
};

/** codes whose status is 5xx and are not above: start-up and programming errors, never caused by a request */
function serverSideCodes(): string[] {
  return Object.keys(errorCodes).filter((code) => !(code in CLIENT_CODES) && statusOf(code) >= 500);
}

function statusOf(code: string): number {
  const E = (errorCodes as unknown as Record<string, new (...a: unknown[]) => { statusCode?: number }>)[code];
  return new E('a', 'b', 'c').statusCode ?? 500;
}

async function send(t: Trigger): Promise<RawResponse> {
  if (typeof t.send === 'string') return rawExchange(running.url, t.send, { endAfterWrite: t.halfClose });
  return rawRequest(running.url, t.send);
}

/** v4's envelope, nothing else: no `code`, no `statusCode`, no fastify `error` string */
function expectEnvelope(res: RawResponse, status: number, name: string, message: string | RegExp | undefined, where: string): void {
  expect(res.status, where).toBe(status);
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(Object.keys(body).sort(), where).toEqual(['data', 'error']);
  expect(body.data, where).toBeNull();
  expect(Object.keys(body.error).sort(), where).toEqual(['details', 'message', 'name', 'status']);
  expect(body.error.status, where).toBe(status);
  expect(body.error.name, where).toBe(name);
  expect(typeof body.error.message, where).toBe('string');
  if (message !== undefined) expect(body.error.message, where).toMatch(message instanceof RegExp ? message : new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  expect(body.error.details, where).toEqual({});
}

describe("fastify's error codes", () => {
  it('each code is either triggered below or a start-up/programming error (5xx)', () => {
    const unplaced = Object.keys(errorCodes).filter((code) => !(code in CLIENT_CODES) && statusOf(code) < 500);
    expect(unplaced).toEqual([]);
    for (const code of Object.keys(CLIENT_CODES)) expect(Object.keys(errorCodes), code).toContain(code);
    expect(serverSideCodes().length).toBeGreaterThan(50);
  });

  const triggered = Object.entries(CLIENT_CODES).flatMap(([code, v]) => (typeof v === 'string' ? [] : v.map((t) => ({ code, ...t }))));
  it.each(triggered)('$code: $what -> $status $name in the envelope', async (t) => {
    expectEnvelope(await send(t), t.status, t.name, t.message, `${t.code}: ${t.what}`);
  });

  it('the over-long id and the bad escape answer exactly as v4 4.26.2 does', async () => {
    expect(JSON.parse((await rawRequest(running.url, { path: '/api/articles/%ff' })).body)).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'failed to decode', details: {} } });
    expect(JSON.parse((await rawRequest(running.url, { path: `/api/articles/${longId}` })).body)).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  it('the answers to malformed URLs carry the security headers like every other answer', async () => {
    const res = await rawRequest(running.url, { path: '/api/articles/%ff' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('the error handler maps every fastify error of a 4xx status to the envelope, named as v4 names that status', () => {
    for (const [code, E] of Object.entries(errorCodes as unknown as Record<string, new (...a: unknown[]) => Error & { statusCode?: number }>)) {
      const err = new E('a', 'b', 'c');
      const status = err.statusCode ?? 500;
      if (status < 400 || status >= 500) continue;
      const { status: sent, body } = toErrorBody(frameworkError(err));
      if (code === 'FST_ERR_MAX_PARAM_LENGTH') {
        expect([sent, body.error.name], code).toEqual([404, 'NotFoundError']);
        continue;
      }
      expect(sent, code).toBe(status);
      expect(body.error.name, code).toBe(code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'PayloadTooLargeError' : httpErrorBody(status, undefined).body.error.name);
      expect(body.error.details, code).toEqual({});
    }
  });
});

describe("Node's own answers", () => {
  it.each([
    { what: 'a header name with a space', send: 'GET /api/authors HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\nConnection: close\r\n\r\n', status: 400, name: 'BadRequestError' },
    { what: 'a request target without a slash', send: 'GET robots.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', status: 400, name: 'BadRequestError' },
    { what: 'headers over the size limit', send: `GET /api/authors HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`, status: 431, name: 'RequestHeaderFieldsTooLargeError' },
    { what: 'an Expect header other than 100-continue', send: 'GET /api/authors HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n', status: 417, name: 'ExpectationFailedError' },
  ])('$what -> $status $name in the envelope', async (t) => {
    expectEnvelope(await rawExchange(running.url, t.send), t.status, t.name, undefined, t.what);
  });
});

describe('while the server closes', () => {
  it('a request arriving on a connection still open answers 503 in the envelope, not fastify\'s own body', async () => {
    const own = await startFixtureApp(true);
    try {
      const socket = net.connect(Number(new URL(own.url).port), '127.0.0.1');
      await once(socket, 'connect');
      let received = '';
      socket.on('data', (d) => (received += String(d)));
      // a request in flight (its body not all sent) keeps the connection open while close() begins
      socket.write('POST /api/authors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"data":');
      await delay(100);
      const closed = own.app.close();
      await delay(50);
      // the rest of its body, and a second request pipelined behind it
      socket.write('{}}GET /api/authors HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      await Promise.race([once(socket, 'end'), delay(5000)]);
      socket.destroy();
      await closed;
      const second = received.slice(received.indexOf('HTTP/1.1 ', 1));
      expect(second).toMatch(/^HTTP\/1\.1 503 /);
      expectEnvelope({ status: 503, headers: { 'content-type': /content-type: ([^\r]*)/i.exec(second)?.[1] }, body: second.slice(second.indexOf('\r\n\r\n') + 4) }, 503, 'ServiceUnavailableError', 'Service Unavailable', 'closing');
    } finally {
      await own.stop();
    }
  });
});
