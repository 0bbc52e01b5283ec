// The error classes of @strapi/utils v4 (`require('@strapi/utils').errors`), which project code throws
// from controllers, services and policies; the REST layer maps them to v4's error responses by `name`.

export class ApplicationError extends Error {
  details: unknown;
  constructor(message = 'An application error occured', details: unknown = {}) {
    super(message);
    this.name = 'ApplicationError';
    this.details = details;
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
  constructor(message = 'Entity not found', details?: unknown) {
    super(message, details);
    this.name = 'NotFoundError';
  }
}

export class ForbiddenError extends ApplicationError {
  constructor(message = 'Forbidden access', details?: unknown) {
    super(message, details);
    this.name = 'ForbiddenError';
  }
}

export class UnauthorizedError extends ApplicationError {
  constructor(message = 'Unauthorized', details?: unknown) {
    super(message, details);
    this.name = 'UnauthorizedError';
  }
}

export class RateLimitError extends ApplicationError {
  constructor(message = 'Too many requests, please try again later.', details: unknown = {}) {
    super(message, details);
    this.name = 'RateLimitError';
  }
}

export class PayloadTooLargeError extends ApplicationError {
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
  constructor(message = 'This feature is not implemented yet', details?: unknown) {
    super(message, details);
    this.name = 'NotImplementedError';
  }
}

export const errors = {
  ApplicationError, ValidationError, PaginationError, NotFoundError, ForbiddenError,
  UnauthorizedError, RateLimitError, PayloadTooLargeError, PolicyError, NotImplementedError,
};
