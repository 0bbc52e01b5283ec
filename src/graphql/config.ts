// `config/plugins.js` graphql.config, as 4.26's plugin reads it (docs/configuration.md, "GraphQL").
export interface GraphqlConfig {
  endpoint: string;
  shadowCRUD: boolean;
  /** the playground also in production */
  playgroundAlways: boolean;
  /** deepest selection nesting a document may have (undefined: v4's default, no limit; Tessera caps at MAX_DEPTH) */
  depthLimit?: number;
  /** most items one list may answer (the seed's meaning; 4.26 ignores the key) */
  amountLimit?: number;
  /** items of a list without `pagination` (v4: 10) */
  defaultLimit: number;
  /** largest page (`-1` or unset: none) */
  maxLimit?: number;
  /** Tessera: most entries one operation may answer, nested lists multiplied (complexity.ts); unset: none */
  complexityLimit?: number;
  /** graphql-jit on (Tessera's switch: `jit: false` runs graphql-js only) */
  jit: boolean;
  /** apolloServer.introspection: undefined -> on except in production (Apollo 3's default) */
  introspection: boolean;
  /** keys of apolloServer that have no meaning here (logged once at start) */
  ignored: string[];
}

/** what any document may nest, whatever the configuration says: deeper ones cost stack and populate levels */
export const MAX_DEPTH = 32;

const KNOWN_APOLLO = new Set(['introspection', 'tracing', 'cache']);

export function graphqlConfig(get: (key: string) => unknown, production: boolean): GraphqlConfig {
  const int = (key: string): number | undefined => {
    const v = get(key);
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  };
  const apollo = get('apolloServer');
  const apolloOptions = apollo && typeof apollo === 'object' ? (apollo as Record<string, unknown>) : {};
  const endpoint = get('endpoint');
  const maxLimit = int('maxLimit');
  const amountLimit = int('amountLimit');
  return {
    endpoint: typeof endpoint === 'string' && endpoint.startsWith('/') ? endpoint : '/graphql',
    shadowCRUD: get('shadowCRUD') !== false,
    playgroundAlways: get('playgroundAlways') === true,
    depthLimit: int('depthLimit'),
    amountLimit: amountLimit !== undefined && amountLimit > 0 ? amountLimit : undefined,
    defaultLimit: Math.max(1, int('defaultLimit') ?? 10),
    maxLimit: maxLimit !== undefined && maxLimit > 0 ? maxLimit : undefined,
    complexityLimit: (int('complexityLimit') ?? 0) > 0 ? int('complexityLimit') : undefined,
    jit: get('jit') !== false,
    introspection: typeof apolloOptions.introspection === 'boolean' ? apolloOptions.introspection : !production,
    ignored: Object.keys(apolloOptions).filter((k) => !KNOWN_APOLLO.has(k) || k === 'tracing' || k === 'cache').map((k) => `apolloServer.${k}`),
  };
}

/** the page size limit a list answers with: maxLimit, tightened by amountLimit */
export function listLimit(c: GraphqlConfig): number | undefined {
  if (c.amountLimit === undefined) return c.maxLimit;
  return c.maxLimit === undefined ? c.amountLimit : Math.min(c.maxLimit, c.amountLimit);
}
