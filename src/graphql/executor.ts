// The GraphQL engine behind the endpoint: mercurius on an inner fastify instance that serves no routes (its
// document cache, validation, graphql-jit after a document's first run, hooks), loaded on the first GraphQL
// request. Loading mercurius with graphql-jit, ws and @fastify/static costs ~150 ms and ~7 MB, which a start-up and
// every project's REST traffic need not pay; the schema itself is built at start-up (a broken one stops it).
import type { FastifyInstance } from 'fastify';
import type { ExecutionResult, GraphQLSchema, ValidationRule } from 'graphql';
import { lazyModule } from '../lazy-module';
import type { GraphqlContext } from './context';
import { jitUnsafeDocuments } from './jit-guard';

export interface ExecutorOptions {
  schema: GraphQLSchema;
  jit: boolean;
  validationRules: ValidationRule[];
  /** tokens one document may have (graphql-js stops parsing beyond it) */
  maxTokens: number;
  /** an execution that produced errors -> its status and answer (mercurius sets the status on the reply) */
  errorFormatter(execution: ExecutionResult): { statusCode: number; response: unknown };
}

/** documents mercurius keeps parsed (and compiled), and failed ones, each (its LRU holds up to twice this) */
export const DOCUMENT_CACHE_SIZE = 64;

type Run = (source: string, context: GraphqlContext, variables?: Record<string, unknown>, operationName?: string) => Promise<ExecutionResult>;

const loadFastify = lazyModule('fastify', 'the GraphQL endpoint', () => require('fastify') as typeof import('fastify'));
const loadMercurius = lazyModule('mercurius', 'the GraphQL endpoint', () => require('mercurius') as typeof import('mercurius'));

export class GraphqlExecutor {
  private engine?: Promise<{ inner: FastifyInstance; run: Run }>;

  constructor(private readonly o: ExecutorOptions) {}

  /** runs one operation; throws mercurius' errors for documents that do not parse or validate */
  async run(source: string, context: GraphqlContext, variables?: Record<string, unknown>, operationName?: string): Promise<ExecutionResult> {
    this.engine ??= this.start();
    return (await this.engine).run(source, context, variables, operationName);
  }

  async close(): Promise<void> {
    if (this.engine) await (await this.engine).inner.close();
  }

  private async start(): Promise<{ inner: FastifyInstance; run: Run }> {
    const o = this.o;
    const Fastify = loadFastify();
    const mercurius = loadMercurius() as unknown as (app: FastifyInstance, opts: Record<string, unknown>) => Promise<void>;
    const inner = (Fastify as unknown as (opts: Record<string, unknown>) => FastifyInstance)({ logger: false });
    await inner.register(mercurius as never, {
      schema: o.schema,
      routes: false,
      graphiql: false,
      jit: o.jit ? 1 : 0,
      // parsed (and compiled) documents kept, and documents that failed validation: bounded by count, and each
      // document's text by MAX_DOCUMENT_LENGTH (request-shape.ts)
      cache: DOCUMENT_CACHE_SIZE,
      validationRules: o.validationRules,
      graphql: { parseOptions: { maxTokens: o.maxTokens } },
      errorFormatter: (execution: ExecutionResult) => o.errorFormatter(execution),
    } as never);
    await inner.ready();
    const gql = (inner as unknown as { graphql: Run & { addHook(name: string, fn: unknown): void } }).graphql;
    if (o.jit) {
      // documents graphql-jit cannot compile safely run on graphql-js (jit-guard.ts): a document returned from
      // this hook counts as modified, which mercurius never compiles
      const unsafe = jitUnsafeDocuments(o.schema);
      gql.addHook('preExecution', async (_schema: unknown, document: never) => (unsafe(document) ? { document } : undefined));
    }
    return { inner, run: (source, context, variables, operationName) => gql(source, context, variables, operationName) };
  }
}
