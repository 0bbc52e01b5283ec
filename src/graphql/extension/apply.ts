// The project's `use()` extensions applied to the generated schema, in v4's steps (content-api buildSchema):
// its nexus `types` made over the generated types (nexus 1.3, so they can extend any of them, Query and
// Mutation included), the `typeDefs` merged in by @graphql-tools' mergeSchemas (SDL may redefine or extend a
// type), the `resolvers` added over everything (later `use()` wins), the nexus `plugins` applied while nexus
// rebuilds the result, then every resolver wrapped with its resolversConfig (wrap-resolvers.ts), then pruned.
// Only a project that registers extensions takes this path: without any, the generated schema is served as is.
// A broken extension stops start-up with nexus' or graphql-tools' message, which names the type or field.
import {
  getNamedType, isInputObjectType, isInterfaceType, isObjectType, parse, visit,
  type ASTNode, type GraphQLFieldResolver, type GraphQLOutputType, type GraphQLSchema,
} from 'graphql';
import type { Model } from '../../model/types';
import { lazyModule } from '../../lazy-module';
import { messageOf, ProjectError } from '../../project/errors';
import type { HookRegistry } from '../../rest/route-chain';
import type { GraphqlDoor } from '../door';
import { WHOLE_ENTITY_TYPES } from '../read-plan';
import { pruneSchema } from '../schema/prune';
import * as naming from '../schema/naming';
import { generateExtension, type GeneratedExtension } from './generate';
import { attachResponseResolvers } from './responses';
import { wrapResolvers } from './wrap-resolvers';

const loadNexus = lazyModule('nexus', 'GraphQL extensions (use())', () => require('nexus') as typeof import('nexus'));
const loadTools = lazyModule('@graphql-tools/schema', 'GraphQL extensions (typeDefs, resolvers)', () => require('@graphql-tools/schema') as typeof import('@graphql-tools/schema'));

export interface ExtendedSchema {
  /** every type kept (not pruned yet), resolvers not wrapped */
  schema: GraphQLSchema;
  ext: GeneratedExtension;
  /** `Type.field` an extension added or gave another resolver */
  changed: Set<string>;
}

type AnyResolver = GraphQLFieldResolver<unknown, unknown> | undefined;

function fail(err: unknown): never {
  throw new ProjectError(`GraphQL extension: ${messageOf(err).trim()}`);
}

type Nexus = typeof import('nexus');

/** nexus' makeSchema; a missing type is reported with the fields that use it (nexus names the type only) */
function nexusSchema(nexus: Nexus, config: Parameters<Nexus['makeSchema']>[0]): GraphQLSchema {
  try {
    return nexus.makeSchema(config);
  } catch (err) {
    const { schema, missingTypes } = nexus.core.makeSchemaInternal(config);
    const missing = Object.keys(missingTypes);
    if (missing.length === 0) throw err;
    const users = typedFields(schema, 'NEXUS__UNKNOWN__TYPE');
    throw new Error(`unknown type ${missing.map((n) => `"${n}"`).join(', ')}${users.length ? ` (used by ${users.join(', ')})` : ''}`);
  }
}

/** `Type.field` (and input fields) of `schema` whose type is named `name` */
function typedFields(schema: GraphQLSchema, name: string): string[] {
  const out: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) if (getNamedType(field.type as GraphQLOutputType).name === name) out.push(`${type.name}.${field.name}`);
  }
  return out;
}

/** graphql-tools' "Unknown type" names the type only: the `Type.field` of the typeDefs that use it */
function withSdlUsers(err: unknown, typeDefs: readonly string[]): unknown {
  const names = new Set([...messageOf(err).matchAll(/Unknown type "([^"]+)"/g)].map((m) => m[1]));
  if (names.size === 0) return err;
  const users: string[] = [];
  for (const text of typeDefs) {
    let parent = '';
    visit(parse(text), {
      enter(node: ASTNode) {
        const n = node as { kind: string; name?: { value: string }; type?: { kind: string }; fields?: unknown };
        if (n.fields !== undefined && n.name) parent = n.name.value;
        if ((n.kind === 'FieldDefinition' || n.kind === 'InputValueDefinition') && n.type && names.has(namedTypeOf(n.type) ?? '')) users.push(`${parent}.${n.name?.value}`);
      },
    });
  }
  return new Error(`unknown type ${[...names].map((n) => `"${n}"`).join(', ')}${users.length ? ` (used by ${[...new Set(users)].join(', ')})` : ''}`);
}

function namedTypeOf(type: { kind: string; type?: unknown; name?: { value: string } }): string | undefined {
  return type.kind === 'NamedType' ? type.name?.value : namedTypeOf(type.type as never);
}

/** the fields' resolvers of every object type, by `Type.field` */
function resolversOf(schema: GraphQLSchema): Map<string, AnyResolver> {
  const out = new Map<string, AnyResolver>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const [name, field] of Object.entries(type.getFields())) out.set(`${type.name}.${name}`, field.resolve as AnyResolver);
  }
  return out;
}

/** the generated schema (not pruned) with the registered extensions' types, typeDefs, resolvers and plugins */
export function extendSchema(base: GraphQLSchema, registered: readonly unknown[], model: Model, strapi: unknown): ExtendedSchema {
  const nexus = loadNexus();
  const { mergeSchemas, addResolversToSchema } = loadTools();
  const registry = typeRegistryView(base, model);
  let ext: GeneratedExtension;
  try {
    ext = generateExtension(registered, { strapi, nexus, typeRegistry: registry.view });
  } catch (err) {
    fail(err);
  }
  const before = resolversOf(base);
  let schema: GraphQLSchema;
  let changed: Set<string>;
  try {
    // no artifacts: v4 writes them only when config `artifacts` asks, which Tessera does not offer
    const options = { shouldGenerateArtifacts: false, outputs: false } as const;
    const withTypes = nexusSchema(nexus, { ...options, types: [...ext.types, ...registry.added], plugins: [], mergeSchema: { schema: base } });
    let merged: GraphQLSchema;
    try {
      // a copy: mergeSchemas adds the schemas to the list it is given
      merged = mergeSchemas({ typeDefs: [...ext.typeDefs], schemas: [withTypes] });
    } catch (err) {
      throw withSdlUsers(err, ext.typeDefs);
    }
    const withResolvers = addResolversToSchema(merged, ext.resolvers as never);
    const after = resolversOf(withResolvers);
    changed = new Set([...after].filter(([path, resolve]) => !before.has(path) || before.get(path) !== resolve).map(([path]) => path));
    schema = nexusSchema(nexus, { ...options, types: [], plugins: ext.plugins as never, mergeSchema: { schema: withResolvers } });
  } catch (err) {
    fail(err);
  }
  return { schema, ext, changed };
}

export interface ApplyDeps {
  door: GraphqlDoor;
  strapi: () => unknown;
  hooks: HookRegistry;
  /** v4's `strapi.entityService.count` (meta.pagination of v4 collection answers) */
  count(uid: string, params: Record<string, unknown>): Promise<number>;
  /** the generated operations and the permission each checks (what attachResolvers answered) */
  crudScopes: ReadonlyMap<string, string>;
  /** filled here, read by the generated operations (resolvers.ts) */
  authReplaced: Set<string>;
}

/**
 * The schema served with extensions: `base` has every type (buildGraphqlSchema's `prune: false`) and the
 * generated and plugins' resolvers attached.
 */
export function applyExtensions(base: GraphQLSchema, registered: readonly unknown[], deps: ApplyDeps): GraphQLSchema {
  const { door } = deps;
  // before the rebuild, so that nexus plugins wrap them as they wrap every resolver
  attachResponseResolvers(base, { door, count: deps.count });
  const baseRoot = new Map<string, unknown>();
  for (const type of [base.getQueryType(), base.getMutationType()]) {
    for (const name of Object.keys(type?.getFields() ?? {})) {
      const path = `${type!.name}.${name}`;
      const scope = deps.crudScopes.get(path);
      baseRoot.set(path, scope !== undefined ? { scope: [scope] } : PLUGIN_AUTH[path] ?? {});
    }
  }
  // i18n's createLocalization mutations
  for (const ct of door.model.contentTypes.values()) {
    const path = `Mutation.create${naming.typeName(ct)}Localization`;
    if (ct.localized && baseRoot.has(path)) baseRoot.set(path, { scope: [`${ct.uid}.createLocalization`] });
  }
  const extended = extendSchema(base, registered, door.model, deps.strapi());
  const replaced = new Set([...extended.changed].filter((path) => baseRoot.has(path)));
  wrapResolvers(extended.schema, extended.ext, { hooks: deps.hooks, strapi: deps.strapi, baseRoot, replaced, authReplaced: deps.authReplaced });
  const served = pruneSchema(extended.schema);
  WHOLE_ENTITY_TYPES.set(served, wholeEntityTypes(door.model, extended));
  return served;
}

/**
 * Content types and components whose project resolvers see the parent entity (a field an extension added or
 * re-resolved, or one with a resolversConfig): they are read whole, every scalar, as v4's entities are.
 */
function wholeEntityTypes(model: Model, extended: ExtendedSchema): Set<string> {
  const touched = new Set([...extended.changed, ...Object.keys(extended.ext.resolversConfig)].map((path) => path.split('.')[0]));
  const out = new Set<string>();
  for (const ct of [...model.contentTypes.values(), ...model.components.values()]) {
    const name = naming.baseName(ct);
    if (touched.has(name)) out.add(name);
  }
  return out;
}

/**
 * The auth v4's plugins give their own operations in resolversConfig (users-permissions
 * server/graphql/resolvers-configs.js, upload server/graphql.js; i18n's createLocalization above): checked here only
 * when an extension replaces the operation's resolver or sets its `auth` (their resolvers check it themselves).
 */
const UP = 'plugin::users-permissions';
const PLUGIN_AUTH: Record<string, unknown> = {
  'Mutation.login': false,
  'Mutation.register': false,
  'Mutation.forgotPassword': false,
  'Mutation.resetPassword': false,
  'Mutation.emailConfirmation': false,
  'Mutation.changePassword': { scope: `${UP}.auth.changePassword` },
  'Mutation.createUsersPermissionsRole': { scope: [`${UP}.role.createRole`] },
  'Mutation.updateUsersPermissionsRole': { scope: [`${UP}.role.updateRole`] },
  'Mutation.deleteUsersPermissionsRole': { scope: [`${UP}.role.deleteRole`] },
  'Mutation.createUsersPermissionsUser': { scope: [`${UP}.user.create`] },
  'Mutation.updateUsersPermissionsUser': { scope: [`${UP}.user.update`] },
  'Mutation.deleteUsersPermissionsUser': { scope: [`${UP}.user.destroy`] },
  'Mutation.upload': { scope: 'plugin::upload.content-api.upload' },
  'Mutation.multipleUpload': { scope: 'plugin::upload.content-api.upload' },
  'Mutation.updateFileInfo': { scope: 'plugin::upload.content-api.upload' },
  'Mutation.removeFile': { scope: 'plugin::upload.content-api.destroy' },
};

/**
 * v4's type registry as extension factories get it (`typeRegistry`): the generated types by name with their
 * kind and content type; what a factory `register()`s is added to the schema with its types.
 */
function typeRegistryView(schema: GraphQLSchema, model: Model) {
  const kinds = new Map<string, { kind: string; contentType?: unknown }>();
  for (const ct of [...model.components.values(), ...model.contentTypes.values()]) {
    const contentType = ct.schema;
    const put = (name: string, kind: string) => kinds.set(name, { kind, contentType });
    for (const [name, attr] of Object.entries(ct.attributes)) {
      if (attr.kind === 'scalar' && attr.type === 'enumeration') put(naming.enumName(ct, name), 'enum');
      if (attr.kind === 'dynamiczone') put(naming.dynamicZoneName(ct, name), 'dynamic-zone');
    }
    put(naming.filtersInputName(ct), 'filters-input');
    put(naming.inputName(ct), 'input');
    if (ct.kind === 'component') {
      put(naming.componentName(ct), 'component');
      continue;
    }
    put(naming.typeName(ct), 'type');
    put(naming.entityName(ct), 'entity');
    put(naming.entityResponseName(ct), 'entity-response');
    put(naming.entityResponseCollectionName(ct), 'entity-response-collection');
    put(naming.relationResponseCollectionName(ct), 'relation-response-collection');
  }
  const entry = (name: string) => {
    const definition = schema.getType(name) ?? added.get(name)?.definition;
    return definition ? { name, definition, config: added.get(name)?.config ?? kinds.get(name) ?? { kind: 'internal' } } : undefined;
  };
  const added = new Map<string, { definition: unknown; config: unknown }>();
  const names = () => [...Object.keys(schema.getTypeMap()).filter((n) => !n.startsWith('__')), ...added.keys()];
  const view = {
    register(name: string, definition: unknown, config: unknown = {}) {
      if (schema.getType(name) || added.has(name)) throw new Error(`"${name}" has already been registered`);
      added.set(name, { definition, config });
      return view;
    },
    registerMany(list: Array<[string, unknown]>, config: unknown = {}) {
      for (const [name, definition] of list) view.register(name, definition, typeof config === 'function' ? config(name, definition) : config);
      return view;
    },
    has: (name: string) => Boolean(schema.getType(name)) || added.has(name),
    get: (name: string) => entry(name),
    toObject: () => Object.fromEntries(names().map((n) => [n, entry(n)])),
    get types() {
      return names();
    },
    get definitions() {
      return names().map((n) => entry(n)!);
    },
    where: (predicate: (def: ReturnType<typeof entry>) => boolean) => names().map((n) => entry(n)!).filter(predicate),
  };
  return {
    view,
    get added() {
      return [...added.values()].map((a) => a.definition);
    },
  };
}
