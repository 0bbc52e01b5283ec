// The registered `use()` extensions merged into one, as v4's extension service `generate()` merges them: each
// function is called with `{ strapi, nexus, typeRegistry }` (once here; v4 calls it twice while building, which
// only a factory with side effects could tell), `types` and `plugins` are appended, `typeDefs` strings kept in
// order, `resolvers` deep-merged with the later one winning, and `resolversConfig` deep-merged with the EARLIER
// one winning (lodash merge, arrays index by index: v4's quirk, so a project's register() config beats the
// scopes the plugins add afterwards).
import { merge } from 'lodash';

export interface ResolverConfig {
  auth?: unknown;
  policies?: unknown;
  middlewares?: unknown;
}

export interface GeneratedExtension {
  types: unknown[];
  typeDefs: string[];
  plugins: unknown[];
  resolvers: Record<string, Record<string, unknown>>;
  resolversConfig: Record<string, ResolverConfig>;
}

export interface FactoryArgs {
  strapi: unknown;
  nexus: unknown;
  typeRegistry: unknown;
}

export function generateExtension(registered: readonly unknown[], args: FactoryArgs): GeneratedExtension {
  const out: GeneratedExtension = { types: [], typeDefs: [], plugins: [], resolvers: {}, resolversConfig: {} };
  registered.forEach((entry, index) => {
    const ext = (typeof entry === 'function' ? (entry as (a: FactoryArgs) => unknown)(args) : entry) as Record<string, unknown> | null | undefined;
    if (ext === null || ext === undefined) return;
    if (typeof ext !== 'object') throw new Error(`use() #${index + 1}: an extension must be an object (or a function returning one), not ${typeof ext}`);
    const { types, typeDefs, plugins, resolvers, resolversConfig } = ext;
    if (typeof typeDefs === 'string') out.typeDefs.push(typeDefs);
    if (Array.isArray(types)) out.types.push(...types);
    if (Array.isArray(plugins)) out.plugins.push(...plugins);
    if (resolvers && typeof resolvers === 'object') out.resolvers = merge({}, out.resolvers, resolvers);
    if (resolversConfig && typeof resolversConfig === 'object') out.resolversConfig = merge({}, resolversConfig, out.resolversConfig);
  });
  return out;
}

/** the config of `Type.field` (v4 reads it with lodash `get`, so a nested `{ Query: { x: {...} } }` works too) */
export function configOf(all: GeneratedExtension['resolversConfig'], path: string): ResolverConfig | undefined {
  const flat = all[path];
  if (flat !== undefined) return flat;
  const [type, field] = path.split('.');
  const nested = (all as Record<string, unknown>)[type];
  return nested && typeof nested === 'object' ? ((nested as Record<string, ResolverConfig>)[field] ?? undefined) : undefined;
}
