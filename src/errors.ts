// The project's error classes and their mapping to Strapi v4's error envelope
// `{ data: null, error: { status, name, message, details } }`, kept in one place.
import http from 'node:http';

export type ErrorDetails = Record<string, unknown>;

export class ApplicationError extends Error {
  status = 400;
  override name = 'ApplicationError';
  details: ErrorDetails;
  // 'occured' [sic]: the default message of v4's @strapi/utils.
  constructor(message = 'An application error occured', details: ErrorDetails = {}) {
    super(message);
    this.details = details ?? {};
  }
}

export class ValidationError extends ApplicationError {
  override name = 'ValidationError';
}

export class PaginationError extends ApplicationError {
  override name = 'PaginationError';
  constructor(message = 'Invalid pagination', details: ErrorDetails = {}) { super(message, details); }
}

export class UnauthorizedError extends ApplicationError {
  override status = 401;
  override name = 'UnauthorizedError';
  constructor(message = 'Unauthorized', details: ErrorDetails = {}) { super(message, details); }
}

export class ForbiddenError extends ApplicationError {
  override status = 403;
  override name = 'ForbiddenError';
  constructor(message = 'Forbidden access', details: ErrorDetails = {}) { super(message, details); }
}

/** v4: a policy returning false; a ForbiddenError with its own name. */
export class PolicyError extends ForbiddenError {
  override name = 'PolicyError';
  constructor(message = 'Policy Failed', details: ErrorDetails = {}) { super(message, details); }
}

export class NotFoundError extends ApplicationError {
  override status = 404;
  override name = 'NotFoundError';
  constructor(message = 'Entity not found', details: ErrorDetails = {}) { super(message, details); }
}

export class MethodNotAllowedError extends ApplicationError {
  override status = 405;
  override name = 'MethodNotAllowedError';
  constructor(message = 'Method Not Allowed', details: ErrorDetails = {}) { super(message, details); }
}

export class PayloadTooLargeError extends ApplicationError {
  override status = 413;
  override name = 'PayloadTooLargeError';
  constructor(message = 'Entity too large', details: ErrorDetails = {}) { super(message, details); }
}

export class RateLimitError extends ApplicationError {
  override status = 429;
  override name = 'RateLimitError';
  constructor(message = 'Too many requests, please try again later.', details: ErrorDetails = {}) { super(message, details); }
}

/** koa's `ctx.badRequest(...)` in v4: an http-errors 400 named BadRequestError, with Strapi's details. */
export class BadRequestError extends ApplicationError {
  override name = 'BadRequestError';
  constructor(message = 'Bad Request', details: ErrorDetails = {}) { super(message, details); }
}

/** A request body that is not valid JSON: v4 (co-body) shows the parser's own error name and message. */
export class JsonSyntaxError extends ApplicationError {
  override name = 'SyntaxError';
}

/** the server is at a bound of its own (uploads read at once): the client may try again */
export class ServiceUnavailableError extends ApplicationError {
  override status = 503;
  override name = 'ServiceUnavailableError';
  constructor(message = 'Service Unavailable', details: ErrorDetails = {}) { super(message, details); }
}

export class NotImplementedError extends ApplicationError {
  override status = 501;
  override name = 'NotImplementedError';
  constructor(message = 'This feature is not implemented yet', details: ErrorDetails = {}) { super(message, details); }
}

/** http-errors names and reason phrases of the client errors (what v4 shows for ctx.throw / body parsing). */
const CLIENT_ERRORS: Record<number, [name: string, phrase: string]> = {
  400: ['BadRequestError', 'Bad Request'],
  401: ['UnauthorizedError', 'Unauthorized'],
  402: ['PaymentRequiredError', 'Payment Required'],
  403: ['ForbiddenError', 'Forbidden'],
  404: ['NotFoundError', 'Not Found'],
  405: ['MethodNotAllowedError', 'Method Not Allowed'],
  406: ['NotAcceptableError', 'Not Acceptable'],
  407: ['ProxyAuthenticationRequiredError', 'Proxy Authentication Required'],
  408: ['RequestTimeoutError', 'Request Timeout'],
  409: ['ConflictError', 'Conflict'],
  410: ['GoneError', 'Gone'],
  411: ['LengthRequiredError', 'Length Required'],
  412: ['PreconditionFailedError', 'Precondition Failed'],
  413: ['PayloadTooLargeError', 'Payload Too Large'],
  414: ['URITooLongError', 'URI Too Long'],
  415: ['UnsupportedMediaTypeError', 'Unsupported Media Type'],
  416: ['RangeNotSatisfiableError', 'Range Not Satisfiable'],
  417: ['ExpectationFailedError', 'Expectation Failed'],
  418: ['ImATeapotError', "I'm a Teapot"],
  421: ['MisdirectedRequestError', 'Misdirected Request'],
  422: ['UnprocessableEntityError', 'Unprocessable Entity'],
  423: ['LockedError', 'Locked'],
  424: ['FailedDependencyError', 'Failed Dependency'],
  425: ['TooEarlyError', 'Too Early'],
  426: ['UpgradeRequiredError', 'Upgrade Required'],
  428: ['PreconditionRequiredError', 'Precondition Required'],
  429: ['TooManyRequestsError', 'Too Many Requests'],
  431: ['RequestHeaderFieldsTooLargeError', 'Request Header Fields Too Large'],
  451: ['UnavailableForLegalReasonsError', 'Unavailable For Legal Reasons'],
};

export interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details: ErrorDetails };
}

function envelope(status: number, name: string, message: string, details: ErrorDetails): { status: number; body: ErrorBody } {
  return { status, body: { data: null, error: { status, name, message, details } } };
}

function isPlainObject(v: unknown): v is ErrorDetails {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The 4xx status of an http-errors / fastify style error that may be shown to the client, if any. */
function exposedClientStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown };
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status >= 500) return undefined;
  // http-errors sets expose=true for every 4xx; fastify errors carry only statusCode.
  return e.expose === false ? undefined : status;
}

/**
 * v4's `formatHttpError(createError(status, message, { details }))`: the envelope of an http error of any
 * 4xx/5xx status, named as http-errors names it (`ConflictError`, `ServiceUnavailableError`).
 */
export function httpErrorBody(status: number, message: string | undefined, details: ErrorDetails = {}): { status: number; body: ErrorBody } {
  const phrase = http.STATUS_CODES[status] ?? 'Unknown Error';
  const name = CLIENT_ERRORS[status]?.[0] ?? (status === 500 ? 'InternalServerError' : `${phrase.split(/\s+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('').replace(/\W/g, '')}Error`);
  return envelope(status, name, message ?? phrase, details);
}

/** Maps anything thrown to v4's status and body. Unknown errors never leak their message or stack. */
export function toErrorBody(err: unknown): { status: number; body: ErrorBody } {
  if (err instanceof ApplicationError) {
    return envelope(err.status, err.name, err.message, isPlainObject(err.details) ? err.details : {});
  }
  const status = exposedClientStatus(err);
  if (status !== undefined) {
    const [name, phrase] = CLIENT_ERRORS[status] ?? ['ClientError', 'Client Error'];
    const e = err as { message?: unknown; details?: unknown };
    const message = typeof e.message === 'string' && e.message !== '' ? e.message : phrase;
    return envelope(status, name, message, isPlainObject(e.details) ? e.details : {});
  }
  return envelope(500, 'InternalServerError', 'Internal Server Error', {});
}
