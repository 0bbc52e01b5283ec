// The GraphQL endpoint on the same fastify instance: mercurius (graphql-js, graphql-jit after a document's
// first run), every request authenticated first as v4 does it (a bad bearer: 401 with the REST error body),
// v4's errors and limits, and the playground for browsers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ExecutionResult, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { Logger } from 'pino';
import type { Auth } from '../auth/authenticate';
import { NotFoundError, toErrorBody, UnauthorizedError } from '../errors';
import type { Access } from '../rest/access';
import { MAX_DEPTH, type GraphqlConfig } from './config';
import type { GraphqlContext } from './context';
import { formatError, formatExecution } from './errors';
import { DEFAULT_DOCUMENT_LIMITS, documentLimitsRule } from './limits';
import { playgroundAsset, playgroundPage } from './playground';
import { jitUnsafeDocuments } from './jit-guard';
import { requestProblem } from './request-shape';

export interface EndpointOptions {
  schema: GraphQLSchema;
  config: GraphqlConfig;
  access: Access;
  log: Logger;
  /** the playground is served (development, or playgroundAlways) */
  playground: boolean;
  /** GraphQL multipart requests (uploads): read into the operation, or the answer when that fails */
  multipart?: {
    read(req: FastifyRequest): Promise<{ body: unknown; cleanup(): Promise<void> }>;
    errorBody(err: unknown): { status: number; body: unknown };
  };
}

/** tokens one document may have (graphql-js stops parsing beyond it) */
const MAX_TOKENS = 20_000;

const AUTH = Symbol('tessera.graphqlAuth');
type AuthedRequest = FastifyRequest & { [AUTH]?: Auth };

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** a browser asking for the endpoint's page: GET, HTML accepted, no query */
function wantsPlayground(req: FastifyRequest): boolean {
  if (req.method !== 'GET') return false;
  const q = req.query as Record<string, unknown> | undefined;
  if (q && q.query !== undefined) return false;
  return String(req.headers.accept ?? '').includes('text/html');
}

export async function registerGraphqlEndpoint(app: FastifyInstance, o: EndpointOptions): Promise<void> {
  const { config, log } = o;
  const depth = Math.min(config.depthLimit ?? MAX_DEPTH, MAX_DEPTH);
  const rules: ValidationRule[] = [documentLimitsRule({ depth, ...DEFAULT_DOCUMENT_LIMITS })];
  if (!config.introspection) rules.push(NoSchemaIntrospectionCustomRule);

  await app.register(async (scope) => {
    if (o.playground) {
      scope.get(`${config.endpoint}/playground/:file`, async (req, reply) => {
        const asset = playgroundAsset((req.params as { file: string }).file);
        if (!asset) return sendJson(reply, 404, toErrorBody(new NotFoundError('Not Found')).body);
        return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
      });
    }
    // before the body's schema check: a multipart body becomes the operation here
    scope.addHook('preValidation', async (req: AuthedRequest, reply) => {
      // the endpoint's own routes only (the playground's files pass untouched)
      if (req.routeOptions.url !== config.endpoint) return;
      if (o.playground && wantsPlayground(req) && req.url.split('?')[0].replace(/\/$/, '') === config.endpoint) {
        // the page loads its own files only (the CSP of the REST answers forbids nothing it needs)
        reply.header('content-security-policy', "default-src 'self'; img-src 'self' data:; font-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'");
        return reply.type('text/html; charset=utf-8').send(playgroundPage(config.endpoint));
      }
      const auth = await o.access.authenticate(req.headers.authorization);
      if (auth.kind === 'none') return sendJson(reply, 401, toErrorBody(new UnauthorizedError(auth.reason)).body);
      req[AUTH] = auth;
      // files are read only for an authenticated caller (a bad token never writes to disk)
      if (o.multipart && req.method === 'POST' && /^multipart\/form-data/i.test(String(req.headers['content-type'] ?? ''))) {
        let read: Awaited<ReturnType<typeof o.multipart.read>>;
        try {
          read = await o.multipart.read(req);
        } catch (err) {
          const { status, body } = o.multipart.errorBody(err);
          if (status >= 500) log.error({ err }, 'GraphQL multipart request failed');
          return sendJson(reply, status, body);
        }
        // the temporary files last until the answer is sent or the client is gone
        reply.raw.once('close', () => void read.cleanup());
        req.body = read.body;
      }
      // what Apollo 3 refuses before reading a document (request-shape.ts)
      const problem = requestProblem(req.method, req.headers['content-type'], req.body, req.query);
      if (problem) {
        reply.code(problem.status);
        return problem.text !== undefined ? reply.type('text/plain; charset=utf-8').send(problem.text) : sendJson(reply, problem.status, problem.json);
      }
    });
    await scope.register(mercurius, {
      schema: o.schema,
      path: config.endpoint,
      graphiql: false,
      jit: config.jit ? 1 : 0,
      allowBatchedQueries: true,
      // no JSON schemas on the endpoint's routes: request-shape.ts checks the body and query as Apollo 3 did,
      // and fastify's schema compilers stay unloaded (src/server/schema-compilers.ts)
      additionalRouteOptions: { schema: undefined },
      validationRules: rules,
      graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
      context: (req: FastifyRequest): GraphqlContext => ({ auth: (req as AuthedRequest)[AUTH]!, planned: new WeakSet(), failed: new WeakMap() }),
      errorFormatter: (execution: ExecutionResult) => {
        const formatted = formatExecution(execution, log);
        // a document graphql-jit compiled reports bad variables as a result without `data` (graphql-js refuses them
        // before executing): nothing ran, so the answer is the 400 without `data` that the first run gave
        if (execution.data === undefined) return { statusCode: 400, response: { errors: formatted.response.errors } } as never;
        return formatted as never;
      },
      // what fails before execution: a document that does not parse or validate, bad variables, a mutation over GET
      errorHandler: (error: Error & { statusCode?: number; errors?: unknown[] }, _req: FastifyRequest, reply: FastifyReply) => {
        // Apollo 3's answer to a mutation sent with GET
        if ((error as { code?: string }).code === 'MER_ERR_METHOD_NOT_ALLOWED') {
          return sendJson(reply, 405, { errors: [{ message: 'GET supports only query operation', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
        }
        const inner = Array.isArray(error.errors) ? error.errors : [error];
        const errors = inner.map((e) => formatError(e instanceof GraphQLError ? e : new GraphQLError((e as Error).message ?? String(e)), log));
        const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
        return sendJson(reply, status, { errors });
      },
    } as never);
    if (config.jit) {
      // documents graphql-jit cannot compile safely run on graphql-js (jit-guard.ts): a document returned from
      // this hook counts as modified, which mercurius never compiles
      const unsafe = jitUnsafeDocuments(o.schema);
      scope.graphql.addHook('preExecution', async (_schema, document) => (unsafe(document) ? { document } : undefined));
    }
  });
}
