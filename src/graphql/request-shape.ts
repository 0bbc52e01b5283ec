// What Apollo Server 3 (v4's GraphQL server) refuses or accepts about a request before reading its document,
// answered the same way here: a body that is no JSON object, a `query` that is missing or not a string, a GET
// without a query; and `variables` sent as a JSON string, which it parses. Tessera adds one refusal: a document
// nested too deeply to parse safely.
import { DEFAULT_MAX_JSON_DEPTH, jsonTextTooDeep, tooDeepMessage } from '../json-nesting';

/** one operation a request asks for */
export interface Operation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** what a request asks for: one operation, or a batch (a JSON array of them) */
export interface RequestedOperations {
  operations: Operation[];
  batch: boolean;
}

export interface RequestProblem {
  status: number;
  /** a plain-text answer (Apollo's) */
  text?: string;
  /** a JSON answer */
  json?: unknown;
}

/**
 * braces and brackets a document may nest: far beyond any depth limit's use, and well before graphql-js' parser
 * (which recurses per level) could run out of stack
 */
export const MAX_DOCUMENT_NESTING = 128;

/**
 * characters one document may have: a parsed document takes ~50 bytes per character and mercurius keeps up to
 * 2 × DOCUMENT_CACHE_SIZE of them (executor.ts), so this bounds that cache (~200 MB at worst, far less in use)
 */
export const MAX_DOCUMENT_LENGTH = 32_000;

function documentProblem(query: string): RequestProblem | undefined {
  if (query.length > MAX_DOCUMENT_LENGTH) {
    return { status: 400, json: { errors: [{ message: `Document longer than ${MAX_DOCUMENT_LENGTH} characters`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } };
  }
  if (!jsonTextTooDeep(query, MAX_DOCUMENT_NESTING)) return undefined;
  return { status: 400, json: { errors: [{ message: `Document nested deeper than ${MAX_DOCUMENT_NESTING} levels`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } };
}

/** operations one batched request may hold (each is run in turn) */
export const MAX_BATCH = 10;

const NO_BODY = 'POST body missing, invalid Content-Type, or JSON object has no keys.';

function problemOfOperation(op: unknown): RequestProblem | undefined {
  if (typeof op !== 'object' || op === null || Array.isArray(op) || Object.keys(op).length === 0) return { status: 400, text: NO_BODY };
  const { query } = op as { query?: unknown };
  if (query !== undefined && query !== null && typeof query !== 'string') return { status: 400, text: 'GraphQL queries must be strings.' };
  if (!query) {
    return { status: 400, json: { errors: [{ message: 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] } };
  }
  return documentProblem(query);
}

/** `variables` given as JSON text becomes the object it holds (Apollo 3 accepts both) */
function parseVariables(op: Record<string, unknown>, maxDepth: number): RequestProblem | undefined {
  if (typeof op.variables !== 'string') return undefined;
  // as deep as a JSON body may be (config/api.js rest.maxJsonDepth): deeper text is refused before it is parsed
  if (jsonTextTooDeep(op.variables, maxDepth)) return { status: 400, text: tooDeepMessage('The variables', maxDepth) };
  try {
    op.variables = op.variables === '' ? undefined : JSON.parse(op.variables);
    return undefined;
  } catch {
    return { status: 400, text: 'Variables are invalid JSON.' };
  }
}

function operationOf(op: Record<string, unknown>): Operation {
  const variables = op.variables && typeof op.variables === 'object' && !Array.isArray(op.variables) ? (op.variables as Record<string, unknown>) : undefined;
  return { query: op.query as string, variables, operationName: typeof op.operationName === 'string' ? op.operationName : undefined };
}

/**
 * The problem Apollo 3 answers for this request, or the operations it asks for. `maxJsonDepth`: how deep variables
 * sent as JSON text may nest (a JSON body's limit).
 */
export function requestProblem(method: string, contentType: string | undefined, body: unknown, query: unknown, maxJsonDepth = DEFAULT_MAX_JSON_DEPTH): RequestProblem | RequestedOperations {
  if (method === 'GET') {
    const q = { ...((query ?? {}) as Record<string, unknown>) };
    if (!q.query) return { status: 400, text: 'GET query missing.' };
    const problem = problemOfOperation(q) ?? parseVariables(q, maxJsonDepth);
    return problem ?? { operations: [operationOf(q)], batch: false };
  }
  if (!/^application\/(json|vnd\.api\+json)|^multipart\/form-data/i.test(contentType ?? '')) return { status: 400, text: NO_BODY };
  const ops = Array.isArray(body) ? body : [body];
  if (ops.length === 0) return { status: 400, text: NO_BODY };
  if (ops.length > MAX_BATCH) {
    return { status: 400, json: { errors: [{ message: `A batch may hold at most ${MAX_BATCH} operations`, extensions: { code: 'BAD_USER_INPUT' } }] } };
  }
  for (const op of ops) {
    const problem = problemOfOperation(op) ?? parseVariables(op as Record<string, unknown>, maxJsonDepth);
    if (problem) return problem;
  }
  return { operations: ops.map((op) => operationOf(op as Record<string, unknown>)), batch: Array.isArray(body) };
}
