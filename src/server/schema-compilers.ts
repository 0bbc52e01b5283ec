// fastify builds its JSON-schema compilers (ajv for validation, fast-json-stringify for serialization) when
// the instance is created, whether or not a route declares a schema: ~25-35 ms and ~4 MB resident at every
// start (bench/README.md, finding 6). No Tessera route declares one (queries and bodies are checked against
// the model instead), so these factories load fastify's own compilers only if a route ever does.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Factory = (...args: unknown[]) => unknown;

/** fastify's default compiler package, resolved from fastify itself (they are its dependencies, not ours) */
function fastifyDefault(pkg: string): () => Factory {
  let selector: Factory | undefined;
  return () => {
    selector ??= (createRequire(require.resolve('fastify'))(pkg) as () => Factory)();
    return selector;
  };
}

const validator = fastifyDefault('@fastify/ajv-compiler');
const serializer = fastifyDefault('@fastify/fast-json-stringify-compiler');

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type Compilers = NonNullable<SchemaController['compilersFactory']>;

/** fastify's `schemaController` option: the default compilers, loaded on first use */
export const lazySchemaCompilers: SchemaController = {
  compilersFactory: {
    buildValidator: ((...args: unknown[]) => validator()(...args)) as Compilers['buildValidator'],
    buildSerializer: ((...args: unknown[]) => serializer()(...args)) as Compilers['buildSerializer'],
  },
};
