import { describe, expect, it } from 'vitest';
import {
  ApplicationError, ForbiddenError, MethodNotAllowedError, NotFoundError, NotImplementedError, PaginationError,
  PayloadTooLargeError, PolicyError, RateLimitError, UnauthorizedError, ValidationError, toErrorBody,
} from '../../src/errors';

describe('error classes', () => {
  it.each([
    [new ApplicationError(), 400, 'ApplicationError', 'An application error occured'],
    [new ValidationError('bad'), 400, 'ValidationError', 'bad'],
    [new PaginationError(), 400, 'PaginationError', 'Invalid pagination'],
    [new UnauthorizedError(), 401, 'UnauthorizedError', 'Unauthorized'],
    [new ForbiddenError(), 403, 'ForbiddenError', 'Forbidden access'],
    [new PolicyError(), 403, 'PolicyError', 'Policy Failed'],
    [new NotFoundError(), 404, 'NotFoundError', 'Entity not found'],
    [new MethodNotAllowedError(), 405, 'MethodNotAllowedError', 'Method Not Allowed'],
    [new PayloadTooLargeError(), 413, 'PayloadTooLargeError', 'Entity too large'],
    [new RateLimitError(), 429, 'RateLimitError', 'Too many requests, please try again later.'],
    [new NotImplementedError(), 501, 'NotImplementedError', 'This feature is not implemented yet'],
  ])('%s', (err, status, name, message) => {
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(ApplicationError);
    expect({ status: err.status, name: err.name, message: err.message, details: err.details }).toEqual({ status, name, message, details: {} });
    expect(toErrorBody(err)).toEqual({ status, body: { data: null, error: { status, name, message, details: {} } } });
  });

  it('keeps details', () => {
    const details = { errors: [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }] };
    expect(toErrorBody(new ValidationError('title must be defined.', details)).body.error.details).toBe(details);
  });
});

describe('toErrorBody for other errors', () => {
  it('http-errors style client errors keep status and message, name from the status', () => {
    const err = Object.assign(new Error('Not Found'), { status: 404, expose: true });
    expect(toErrorBody(err)).toEqual({ status: 404, body: { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } } });
  });

  it('fastify style errors (statusCode only)', () => {
    const err = Object.assign(new Error('Unsupported Media Type: text/foo'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    expect(toErrorBody(err).body.error).toEqual({ status: 415, name: 'UnsupportedMediaTypeError', message: 'Unsupported Media Type: text/foo', details: {} });
    const parse = Object.assign(new SyntaxError('Unexpected token'), { statusCode: 400 });
    expect(toErrorBody(parse).body.error).toMatchObject({ status: 400, name: 'BadRequestError', message: 'Unexpected token' });
  });

  it('falls back to the reason phrase for an empty message', () => {
    expect(toErrorBody({ status: 413, expose: true, message: '' }).body.error).toMatchObject({ name: 'PayloadTooLargeError', message: 'Payload Too Large' });
  });

  it.each([
    ['a plain Error', new Error('SQLITE_ERROR: secret table')],
    ['a 5xx http error', Object.assign(new Error('db down'), { status: 503, expose: false })],
    ['an unexposed 4xx', Object.assign(new Error('internal detail'), { status: 400, expose: false })],
    ['a string', 'boom'],
    ['undefined', undefined],
    ['null', null],
  ])('%s -> 500 without leaking', (_label, err) => {
    expect(toErrorBody(err)).toEqual({
      status: 500,
      body: { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } },
    });
  });
});
