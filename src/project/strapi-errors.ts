// The error classes of @strapi/utils v4 (`require('@strapi/utils').errors`), which project code throws
// from controllers, services and policies. They extend Tessera's own ApplicationError (src/errors.ts) with
// v4's status per class, so the REST layer answers them in v4's envelope as v4's errors middleware does.
import { ApplicationError as HttpApplicationError, type ErrorDetails } from '../errors';

export class ApplicationError extends HttpApplicationError {
  constructor(message = 'An application error occured', details: unknown = {}) {
    super(message, details as ErrorDetails);
    this.name = 'ApplicationError';
  }
}

export class ValidationError extends ApplicationError {
  constructor(message?: string, details?: unknown) {
    super(message, details);
    this.name = 'ValidationError';
  }
}

export class PaginationError extends ApplicationError {
  constructor(message = 'Invalid pagination', details?: unknown) {
    super(message, details);
    this.name = 'PaginationError';
  }
}

export class NotFoundError extends ApplicationError {
  override status = 404;
  constructor(message = 'Entity not found', details?: unknown) {
    super(message, details);
    this.name = 'NotFoundError';
  }
}

export class ForbiddenError extends ApplicationError {
  override status = 403;
  constructor(message = 'Forbidden access', details?: unknown) {
    super(message, details);
    this.name = 'ForbiddenError';
  }
}

export class UnauthorizedError extends ApplicationError {
  override status = 401;
  constructor(message = 'Unauthorized', details?: unknown) {
    super(message, details);
    this.name = 'UnauthorizedError';
  }
}

export class RateLimitError extends ApplicationError {
  override status = 429;
  constructor(message = 'Too many requests, please try again later.', details: unknown = {}) {
    super(message, details);
    this.name = 'RateLimitError';
  }
}

export class PayloadTooLargeError extends ApplicationError {
  override status = 413;
  constructor(message = 'Entity too large', details?: unknown) {
    super(message, details);
    this.name = 'PayloadTooLargeError';
  }
}

export class PolicyError extends ForbiddenError {
  constructor(message = 'Policy Failed', details: unknown = {}) {
    super(message, details);
    this.name = 'PolicyError';
  }
}

export class NotImplementedError extends ApplicationError {
  override status = 501;
  constructor(message = 'This feature is not implemented yet', details?: unknown) {
    super(message, details);
    this.name = 'NotImplementedError';
  }
}

export const errors = {
  ApplicationError, ValidationError, PaginationError, NotFoundError, ForbiddenError,
  UnauthorizedError, RateLimitError, PayloadTooLargeError, PolicyError, NotImplementedError,
};
