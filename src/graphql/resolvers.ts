// Shadow CRUD's resolvers, attached to the schema the builder made (schema/): each root field checks the
// caller's permission, turns its arguments and selection into v4 parameters (read-plan.ts), lets the shared
// parser validate them and the core service run them, and answers v4's shape. Nested fields need no resolver
// of their own: the read populated them, and default resolvers read the shape; only a relation selected again
// with other arguments is loaded afterwards (read-loader.ts).
import {
  getNamedType, isObjectType, isUnionType,
  type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema,
} from 'graphql';
import type { ContentType, Model } from '../model/types';
import type { Entity } from '../query/types';
import { parseRestQuery, type RestQuery } from '../query/parse-query';
import { sanitizeInput } from '../content/sanitize-input';
import { NotFoundError } from '../errors';
import type { GraphqlContext } from './context';
import type { GraphqlDoor } from './door';
import { entityParams, paginationArg, ReadPlanner, sortParam } from './read-plan';
import { toV4Filters } from './filters';
import { entryOf, paginationOf } from './shape';
import { RelationLoader } from './read-loader';
import {
  baseName, componentName, createMutationName, deleteMutationName, findOneQueryName, findQueryName, typeName, updateMutationName,
} from './schema/naming';

type Resolver = GraphQLFieldResolver<unknown, GraphqlContext>;
type Args = Record<string, unknown>;

/** the entity type (`<Type>Entity`) below a response type's `data` */
function entityTypeOf(info: GraphQLResolveInfo): GraphQLObjectType {
  const response = getNamedType(info.returnType);
  const data = isObjectType(response) ? response.getFields().data : undefined;
  const entity = data && getNamedType(data.type);
  if (!entity || !isObjectType(entity)) throw new Error(`${info.parentType.name}.${info.fieldName} does not answer an entity response`);
  return entity;
}

export function plannerOf(door: GraphqlDoor, ctx: GraphqlContext, info: Pick<GraphQLResolveInfo, 'schema' | 'fragments' | 'variableValues'>, paging = door.paging): ReadPlanner {
  const check = (target: ContentType, params: Args) => void parseRestQuery(door.queryContext(ctx.auth), target, params, 'find');
  return new ReadPlanner(door.model, { schema: info.schema, fragments: info.fragments, variableValues: info.variableValues }, paging, ctx, check, (uid) => door.canRead(ctx.auth, uid));
}

/** what the selection under `data` asks for: `fields` and `populate` */
export function selectionParams(door: GraphqlDoor, ctx: GraphqlContext, ct: ContentType, info: GraphQLResolveInfo): { params: Args; planner: ReadPlanner } {
  const planner = plannerOf(door, ctx, info);
  const entity = entityTypeOf(info);
  const response = getNamedType(info.returnType) as GraphQLObjectType;
  const dataNodes = [...planner.subfields(response, info.fieldNodes).values()].filter((g) => g[0].name.value === 'data').flat();
  return { params: dataNodes.length ? entityParams(planner, ct, entity, dataNodes) : { fields: ['id'] }, planner };
}

/** was `meta { pagination }` selected (v4 counts only then) */
function selectsPagination(planner: ReadPlanner, info: GraphQLResolveInfo): boolean {
  const response = getNamedType(info.returnType) as GraphQLObjectType;
  for (const group of planner.subfields(response, info.fieldNodes).values()) {
    if (group[0].name.value !== 'meta') continue;
    const meta = getNamedType(response.getFields().meta.type) as GraphQLObjectType;
    for (const inner of planner.subfields(meta, group).values()) if (inner[0].name.value === 'pagination') return true;
  }
  return false;
}

/** a v4 entry id from an `ID` argument: a positive integer, or null (no such entry) */
function idOf(value: unknown): number | null {
  const s = String(value ?? '');
  return /^\d{1,15}$/.test(s) ? Number(s) : null;
}

function localeParams(ct: ContentType, args: Args): Args {
  return ct.localized && typeof args.locale === 'string' ? { locale: args.locale } : {};
}

export interface AttachOptions {
  /**
   * `Query.x` / `Mutation.x` whose permission check a project's resolversConfig `auth` replaced: the wrapper
   * (extension/wrap-resolvers.ts) checks those, their resolver does not
   */
  authReplaced?: ReadonlySet<string>;
  /** filled with the read fields set here (`Query.x` name -> the content type it reads, and its resolver) */
  reads?: Map<string, { uid: string; resolve: unknown }>;
}

/** attaches the operations' resolvers; answers the permission each one checks, by `Query.x` / `Mutation.x` */
export function attachResolvers(schema: GraphQLSchema, door: GraphqlDoor, options: AttachOptions = {}): Map<string, string> {
  const { model } = door;
  const query = schema.getQueryType()?.getFields() ?? {};
  const mutation = schema.getMutationType()?.getFields() ?? {};
  const scopes = new Map<string, string>();
  for (const ct of model.contentTypes.values()) {
    if (!schema.getType(typeName(ct))) continue;
    const r = contentResolvers(door, ct, options.authReplaced);
    const set = (fields: typeof query, name: string, action: CrudAction, resolve: Resolver) => {
      if (!fields[name]) return;
      fields[name].resolve = resolve as never;
      if (fields === query) options.reads?.set(name, { uid: ct.uid, resolve });
      scopes.set(`${fields === query ? 'Query' : 'Mutation'}.${name}`, actionOf(ct, action));
    };
    if (ct.kind === 'singleType') {
      set(query, findOneQueryName(ct), 'find', r.findSingle);
      set(mutation, updateMutationName(ct), 'update', r.createOrUpdate);
      set(mutation, deleteMutationName(ct), 'delete', r.deleteSingle);
    } else {
      set(query, findQueryName(ct), 'find', r.find);
      set(query, findOneQueryName(ct), 'findOne', r.findOne);
      set(mutation, createMutationName(ct), 'create', r.create);
      set(mutation, updateMutationName(ct), 'update', r.update);
      set(mutation, deleteMutationName(ct), 'delete', r.delete);
    }
  }
  attachTypeResolvers(schema, door);
  return scopes;
}

type CrudAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** the permission each plugin type's operations need, where it is not `<uid>.<action>` (v4's resolversConfig) */
const PLUGIN_ACTIONS: Record<string, Partial<Record<CrudAction, string>>> = {
  'plugin::upload.file': {
    find: 'plugin::upload.content-api.find', findOne: 'plugin::upload.content-api.findOne',
    create: 'plugin::upload.content-api.upload', update: 'plugin::upload.content-api.upload', delete: 'plugin::upload.content-api.destroy',
  },
  'plugin::i18n.locale': { find: 'plugin::i18n.locales.listLocales', findOne: 'plugin::i18n.locales.listLocales' },
  'plugin::users-permissions.user': { delete: 'plugin::users-permissions.user.destroy' },
  'plugin::users-permissions.role': { create: 'plugin::users-permissions.role.createRole', update: 'plugin::users-permissions.role.updateRole', delete: 'plugin::users-permissions.role.deleteRole' },
};

export function actionOf(ct: ContentType, action: CrudAction): string {
  return PLUGIN_ACTIONS[ct.uid]?.[action] ?? `${ct.uid}.${action}`;
}

/** the resolvers of one content type's operations */
export function contentResolvers(door: GraphqlDoor, ct: ContentType, authReplaced?: ReadonlySet<string>) {
  const { model } = door;
  const allowed = (ctx: GraphqlContext, action: CrudAction, info: GraphQLResolveInfo) => {
    if (authReplaced?.size && authReplaced.has(`${info.parentType.name}.${info.fieldName}`)) return;
    door.authorize(ctx.auth, actionOf(ct, action));
  };
  const core = () => door.core(ct.uid);
  const shape = (entity: Entity | null, planner: ReadPlanner) => ({ data: entity ? entryOf(model, ct, entity, planner.needsLoader) : null });
  /** the selection (and `locale`) validated as a findOne / write reads it */
  const readQuery = (ctx: GraphqlContext, info: GraphQLResolveInfo, args: Args, action: 'findOne' | 'write', extra: Args = {}) => {
    const { params, planner } = selectionParams(door, ctx, ct, info);
    const raw = { ...params, ...localeParams(ct, args), ...extra };
    const q: RestQuery = action === 'findOne' ? door.query(ctx.auth, ct, raw, 'findOne') : parseRestQuery(door.queryContext(ctx.auth), ct, raw, 'write');
    return { q, planner };
  };
  /**
   * v4's GraphQL writes through the entity service, which (unlike REST's core service) does not publish a new
   * entry: it stays a draft unless `publishedAt` is given. (An update that creates a single type's entry too.)
   */
  const UNPUBLISHED = { unpublished: true };
  /** v4 answers a deletion with the entry's own fields only: its links and components went with it */
  const withoutRelations = (entity: Entity | null): Entity | null => {
    if (!entity) return entity;
    const out: Entity = { ...entity };
    for (const attr of Object.values(ct.attributes)) {
      if (attr.kind === 'scalar') continue;
      const many = (attr.kind === 'relation' && attr.many) || (attr.kind === 'media' && attr.multiple);
      out[attr.name] = many ? [] : null;
    }
    return out;
  };
  const inputOf = (ctx: GraphqlContext, data: unknown): Record<string, unknown> =>
    sanitizeInput(model, ct, data ?? {}, (uid) => door.canRead(ctx.auth, uid)) as Record<string, unknown>;

  const find: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'find', info);
    const { params, planner } = selectionParams(door, ctx, ct, info);
    const withCount = selectsPagination(planner, info);
    const raw: Args = { ...params, pagination: { ...paginationArg(args.pagination), withCount }, ...localeParams(ct, args) };
    const filters = toV4Filters(model, ct, args.filters);
    if (filters) raw.filters = filters;
    const sort = sortParam(args.sort);
    if (sort) raw.sort = sort;
    if (typeof args.publicationState === 'string') raw.publicationState = args.publicationState;
    const q = door.query(ctx.auth, ct, raw, 'find');
    const meta = (total: unknown) => (withCount ? { pagination: paginationOf(q.pagination!, Number(total ?? 0)) } : {});
    // SQLite writes the entries in v4's shape where the JSON read target applies (as for REST); not when a
    // relation is loaded afterwards (that needs the entities' owners)
    const page = door.jsonReads && !planner.needsLoader ? await core().findJson(q) : null;
    if (page) return { data: JSON.parse(`[${page.entries.join(',')}]`) as unknown[], meta: meta(page.pagination?.total) };
    const { results, pagination } = await core().find(q);
    return { data: results.map((e) => entryOf(model, ct, e, planner.needsLoader)), meta: meta(pagination?.total) };
  };

  const findOne: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'findOne', info);
    const { q, planner } = readQuery(ctx, info, args, 'findOne');
    const id = idOf(args.id);
    if (id === null) return { data: null };
    const text = door.jsonReads && !planner.needsLoader ? await core().findOneJson(id, q) : undefined;
    if (text !== undefined) return { data: text === null ? null : JSON.parse(text) };
    return shape(await core().findOne(id, q), planner);
  };

  const findSingle: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'find', info);
    const state = typeof args.publicationState === 'string' ? { publicationState: args.publicationState } : {};
    const { q, planner } = readQuery(ctx, info, args, 'findOne', state);
    const found = await core().findSingle(q);
    return shape(Array.isArray(found) ? (found[0] ?? null) : found, planner);
  };

  const create: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'create', info);
    const { q, planner } = readQuery(ctx, info, args, 'write');
    const data = inputOf(ctx, args.data);
    if (ct.localized && typeof args.locale === 'string') data.locale = args.locale;
    return shape(await core().create(data, q, UNPUBLISHED), planner);
  };

  const update: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'update', info);
    const { q, planner } = readQuery(ctx, info, args, 'write');
    const id = idOf(args.id);
    // v4: an unknown id answers `data: null`, no error
    return shape(id === null ? null : await core().update(id, inputOf(ctx, args.data), q), planner);
  };

  const remove: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'delete', info);
    const { q, planner } = readQuery(ctx, info, args, 'write');
    const id = idOf(args.id);
    return shape(id === null ? null : withoutRelations(await core().delete(id, q)), planner);
  };

  const createOrUpdate: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'update', info);
    const { q, planner } = readQuery(ctx, info, args, 'write');
    // v4 resolves this one's `data` from the write's promise: a failed write is an error at `data`, and the
    // field itself answers `{ data: null }`
    const data = core().createOrUpdate(inputOf(ctx, args.data), q, UNPUBLISHED).then((entity) => shape(entity, planner).data);
    // a document that does not select `data` never awaits it: its failure must not go unhandled
    data.catch(() => undefined);
    return { data };
  };

  const deleteSingle: Resolver = async (_parent, args: Args, ctx, info) => {
    allowed(ctx, 'delete', info);
    const { q, planner } = readQuery(ctx, info, args, 'write');
    const entity = await core().deleteSingle(q);
    if (!entity) throw new NotFoundError('Entity not found');
    return shape(withoutRelations(entity), planner);
  };

  return { find, findOne, findSingle, create, update, delete: remove, createOrUpdate, deleteSingle };
}

/**
 * The few resolvers below the root: dynamic-zone items name their type by `__component`; a relation
 * list without entries is `[]` (v4's REST shape has `data: null` for empty media); and a relation, media or
 * component field whose node no read populated is loaded by the request's loader.
 */
function attachTypeResolvers(schema: GraphQLSchema, door: GraphqlDoor): void {
  const { model } = door;
  const componentTypes = new Map<string, string>();
  for (const comp of model.components.values()) componentTypes.set(comp.uid, componentName(comp));
  for (const type of Object.values(schema.getTypeMap())) {
    if (isUnionType(type) && type.name.endsWith('DynamicZone')) {
      type.resolveType = (value: unknown) => componentTypes.get(String((value as { __component?: unknown }).__component)) ?? 'Error';
    } else if (isUnionType(type) && (type.name === 'GenericMorph' || type.name.endsWith('Morph'))) {
      // a polymorphic relation's items are read as `{ __type, id, ... }` (v4's REST shape of `related`)
      type.resolveType = (value: unknown) => {
        const target = model.get(String((value as { __type?: unknown }).__type));
        return target ? baseName(target) : undefined;
      };
    } else if (isObjectType(type) && type.name.endsWith('RelationResponseCollection')) {
      const data = type.getFields().data;
      if (data) data.resolve = (parent: unknown) => (parent as { data?: unknown }).data ?? [];
    }
  }
  for (const ct of [...model.contentTypes.values(), ...model.components.values()]) {
    const type = schema.getType(baseName(ct));
    if (!isObjectType(type)) continue;
    const fields = type.getFields();
    for (const attr of Object.values(ct.attributes)) {
      if (attr.kind === 'scalar' || attr.kind === 'dynamiczone' || !fields[attr.name]) continue;
      if (attr.kind === 'component' && !attr.repeatable) continue;
      const name = attr.name;
      fields[name].resolve = ((parent: Record<string, unknown>, args: Args, ctx: GraphqlContext, info: GraphQLResolveInfo) => {
        const node = info.fieldNodes[0];
        if (ctx.planned.has(node)) return parent[name];
        const failed = ctx.failed.get(node);
        if (failed) throw failed;
        ctx.loader ??= new RelationLoader(door, ctx);
        return ctx.loader.load(parent, attr, args, info);
      }) as never;
    }
  }
}

