// Errors as v4's GraphQL plugin (Apollo Server 3) answers them: a resolver's error comes back with HTTP 200,
// `null` at its field, and `extensions: { error: { name, message, details }, code }` (FORBIDDEN for permission
// errors, BAD_USER_INPUT for validation errors, STRAPI_<NAME> for other Strapi errors); a document that does
// not validate answers HTTP 400 with its locations and GRAPHQL_VALIDATION_FAILED. Anything else is an internal
// error: logged, and answered without its message or stack. (Resolver errors carry a `path`; the document's do not.)
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Logger } from 'pino';
import { ApplicationError, ForbiddenError, UnauthorizedError, ValidationError } from '../errors';
import { errors as projectErrors } from '../project/strapi-errors';

export interface FormattedError {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions: Record<string, unknown>;
}

const upperSnake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/**
 * Strapi's error classes by the code Apollo 3 gave them (v4's formatGraphqlError); the classes project code
 * throws (`require('@strapi/utils').errors`, project/strapi-errors.ts) count as the same (a policy's own
 * PolicyError is FORBIDDEN)
 */
function strapiCode(err: ApplicationError): string {
  if (err instanceof ForbiddenError || err instanceof UnauthorizedError) return 'FORBIDDEN';
  if (err instanceof projectErrors.ForbiddenError || err instanceof projectErrors.UnauthorizedError) return 'FORBIDDEN';
  if (err instanceof ValidationError || err instanceof projectErrors.ValidationError) return 'BAD_USER_INPUT';
  return `STRAPI_${upperSnake(err.name)}`;
}

/** what was thrown below GraphQL's own error wrapper (mercurius and graphql-jit may wrap twice) */
function rootCause(e: GraphQLError): unknown {
  let cause: unknown = e.originalError;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause;
}

/** Apollo 3's code for a document's mistake, by what it is */
function documentErrorCode(e: GraphQLError): string {
  if (e.path) return 'INTERNAL_SERVER_ERROR'; // a null for a non-null field
  if (e.message.startsWith('Syntax Error:')) return 'GRAPHQL_PARSE_FAILED';
  // a variable's value that does not coerce (the document itself is valid)
  if (/^Variable "\$[^"]*" (got invalid value|of required type .* was not provided|of non-null type .* must not be null)/.test(e.message)) return 'BAD_USER_INPUT';
  // Apollo 3 reports these from its request pipeline, outside validation
  if (e.message.startsWith('Must provide operation name') || e.message.startsWith('Unknown operation named')) return 'INTERNAL_SERVER_ERROR';
  return 'GRAPHQL_VALIDATION_FAILED';
}

export function formatError(e: GraphQLError, log: Logger): FormattedError {
  const cause = rootCause(e);
  if (cause instanceof ApplicationError) {
    return { message: cause.message, extensions: { error: { name: cause.name, message: cause.message, details: cause.details ?? {} }, code: strapiCode(cause) } };
  }
  if (cause === undefined || cause instanceof GraphQLError || !e.path) {
    // the document's own mistakes (syntax, validation, variables and the scalars' checks of their values, a
    // null for a non-null field)
    const out: FormattedError = { message: e.message, extensions: { code: documentErrorCode(e) } };
    if (e.locations) out.locations = e.locations;
    if (e.path) out.path = e.path;
    return out;
  }
  log.error({ err: cause }, 'GraphQL resolver failed');
  return { message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** the answer to an execution that produced errors: HTTP 200 with its data, or 400 when nothing ran */
export function formatExecution(execution: ExecutionResult & { statusCode?: number }, log: Logger): { statusCode: number; response: { data: unknown; errors: FormattedError[] } } {
  const errors = (execution.errors ?? []).flatMap((e) => expand(e)).map((e) => formatError(e, log));
  const ran = execution.data !== undefined && execution.data !== null;
  // nothing ran and no error comes from a field: the request itself was refused (variables, operation name)
  const refused = !ran && (execution.errors ?? []).every((e) => !e.path);
  const statusCode = ran ? 200 : refused ? 400 : (execution.statusCode ?? 200);
  return { statusCode, response: refused ? ({ errors } as never) : { data: execution.data ?? null, errors } };
}

/** mercurius wraps a document's validation errors into one error carrying the list */
function expand(e: GraphQLError): GraphQLError[] {
  const inner = (e.originalError as { errors?: unknown } | undefined)?.errors;
  if (Array.isArray(inner)) return inner.map((x) => (x instanceof GraphQLError ? x : new GraphQLError(String((x as Error)?.message ?? x))));
  return [e];
}
