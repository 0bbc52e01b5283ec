// The GraphQL endpoint on the same fastify instance: GET and POST at the configured path, every request
// authenticated first as v4 does it (a bad bearer: 401 with the REST error body), Apollo 3's request rules
// (request-shape.ts), batched operations, v4's errors and limits, and the playground for browsers; the operations
// run on mercurius (executor.ts: graphql-js, graphql-jit after a document's first run), loaded on first use.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ExecutionResult, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { Logger } from 'pino';
import type { Auth } from '../auth/authenticate';
import { NotFoundError, toErrorBody, UnauthorizedError } from '../errors';
import type { Access } from '../rest/access';
import { MAX_DEPTH, type GraphqlConfig } from './config';
import type { GraphqlContext } from './context';
import { formatError, formatExecution } from './errors';
import { complexityCheck } from './complexity';
import { DEFAULT_DOCUMENT_LIMITS, documentLimitsRule } from './limits';
import { playgroundAsset, playgroundPage } from './playground';
import { GraphqlExecutor } from './executor';
import { requestProblem, type Operation } from './request-shape';
import { answerKey, sendKept, type KeptAnswers } from '../cache/kept-answers';
import { keptOperationTypes, type ReadFields } from './kept-operations';

export interface EndpointOptions {
  schema: GraphQLSchema;
  config: GraphqlConfig;
  access: Access;
  log: Logger;
  /** the playground is served (development, or playgroundAlways) */
  playground: boolean;
  /** the response cache, and the read fields whose answers it may keep (kept-operations.ts) */
  kept?: { answers: KeptAnswers; reads: ReadFields };
  /** how deep variables sent as JSON text may nest (config/api.js rest.maxJsonDepth, as a JSON body) */
  maxJsonDepth?: number;
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
  const executor = new GraphqlExecutor({
    schema: o.schema, jit: config.jit, validationRules: rules, maxTokens: MAX_TOKENS,
    errorFormatter: (execution) => formatExecution(execution, log),
  });
  app.addHook('onClose', async () => executor.close());

  const complexity = config.complexityLimit ? complexityCheck(o.schema, config, config.complexityLimit, MAX_TOKENS) : undefined;
  /** one operation's status and answer */
  const runOne = async (op: Operation, req: AuthedRequest, reply: FastifyReply): Promise<{ status: number; body: unknown }> => {
    const context: GraphqlContext & { reply: FastifyReply } = { auth: req[AUTH]!, planned: new WeakSet(), failed: new WeakMap(), reply };
    const tooMany = complexity?.refusal(op.query, op.variables, op.operationName);
    if (tooMany) return thrownAnswer(Object.assign(new Error(tooMany.message), { errors: [tooMany] }));
    try {
      reply.code(200);
      const result = await executor.run(op.query, context, op.variables, op.operationName);
      // mercurius sets the status of an execution with errors on the reply (errors.ts formatExecution)
      return { status: reply.statusCode, body: result };
    } catch (error) {
      return thrownAnswer(error as Error & { statusCode?: number; errors?: unknown[]; code?: string });
    }
  };
  /** what fails before execution: a document that does not parse or validate, bad variables, a mutation over GET */
  const thrownAnswer = (error: Error & { statusCode?: number; errors?: unknown[]; code?: string }): { status: number; body: unknown } => {
    // Apollo 3's answer to a mutation sent with GET
    if (error.code === 'MER_ERR_METHOD_NOT_ALLOWED') {
      return { status: 405, body: { errors: [{ message: 'GET supports only query operation', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] } };
    }
    if (!Array.isArray(error.errors)) log.error({ err: error }, 'GraphQL request failed');
    const inner = Array.isArray(error.errors) ? error.errors : [error];
    const errors = inner.map((e) => formatError(e instanceof GraphQLError ? e : new GraphQLError((e as Error).message ?? String(e)), log));
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    return { status, body: { errors } };
  };

  await app.register(async (scope) => {
    // read, so that Apollo's answer to it (400, request-shape.ts) is given rather than fastify's 415
    scope.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_req, text, done) => done(null, text));
    if (o.playground) {
      scope.get(`${config.endpoint}/playground/:file`, async (req, reply) => {
        const asset = playgroundAsset((req.params as { file: string }).file);
        if (!asset) return sendJson(reply, 404, toErrorBody(new NotFoundError('Not Found')).body);
        return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
      });
    }
    scope.route({
      method: ['GET', 'POST'],
      url: config.endpoint,
      handler: async (req: AuthedRequest, reply) => {
        if (o.playground && wantsPlayground(req)) {
          // the page loads its own files only (the CSP of the REST answers forbids nothing it needs)
          reply.header('content-security-policy', "default-src 'self'; img-src 'self' data:; font-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'");
          return reply.type('text/html; charset=utf-8').send(playgroundPage(config.endpoint));
        }
        const auth = await o.access.authenticate(req.headers.authorization);
        if (auth.kind === 'none') return sendJson(reply, 401, toErrorBody(new UnauthorizedError(auth.reason)).body);
        req[AUTH] = auth;
        // files are read only for an authenticated caller (a bad token never writes to disk)
        const multipart = req.method === 'POST' && /^multipart\/form-data/i.test(String(req.headers['content-type'] ?? ''));
        if (o.multipart && multipart) {
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
        // what Apollo 3 refuses before reading a document, and the operations it reads (request-shape.ts)
        const request = requestProblem(req.method, req.headers['content-type'], req.body, req.query, o.maxJsonDepth);
        if ('status' in request) {
          reply.code(request.status);
          return request.text !== undefined ? reply.type('text/plain; charset=utf-8').send(request.text) : sendJson(reply, request.status, request.json);
        }
        if (!request.batch) {
          const op = request.operations[0];
          const types = o.kept && !multipart ? keptOperationTypes(op, o.kept.reads, MAX_TOKENS) : null;
          const keyOf = () => answerKey(o.kept!.answers, 'graphql', auth.ability, JSON.stringify([op.query, op.operationName ?? null, op.variables ?? null]));
          const key = types && keyOf();
          if (!key) {
            const { status, body } = await runOne(op, req, reply);
            return sendJson(reply, status, body);
          }
          const k = o.kept!.answers;
          const found = await k.cache.lookup(key);
          if ('hit' in found) return sendKept(k, req, reply, found.hit);
          const { status, body } = await runOne(op, req, reply);
          // kept: an answer without errors (a 200 with `errors` is still an error answer), under the key it was
          // looked up with (the default locale may have changed while it was built)
          if (status !== 200 || (body as ExecutionResult).errors !== undefined || keyOf() !== key) return sendJson(reply, status, body);
          return sendKept(k, req, reply, k.cache.store(key, found.miss, k.tables(types!), 200, 'application/json; charset=utf-8', JSON.stringify(body)));
        }
        // a batch: each operation answered in place, the whole with 200 (Apollo 3)
        const answers: unknown[] = [];
        for (const op of request.operations) {
          answers.push((await runOne(op, req, reply)).body);
          // SQLite answers synchronously: let other requests in between a batch's operations
          await new Promise((resolve) => setImmediate(resolve));
        }
        return sendJson(reply, 200, answers);
      },
    });
  });
}
