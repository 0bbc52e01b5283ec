// What custom resolvers answer with, as in v4: `service('format').returnTypes.toEntityResponse(value, { args,
// resourceUID })` -> `{ value, info }`, `toEntityResponseCollection(nodes, ...)` -> `{ nodes, info }`, with flat
// entities (the entity service's). The generated resolvers answer v4's REST-like shape instead (`{ data }`,
// `{ data, meta }` with `{ id, attributes }` entries: shape.ts), so with extensions the response types read
// either: a v4 value is turned into entries here, its scalars as the resolver gave them and its relations,
// media, components and dynamic zones read for what the query selects below it (as v4's field resolvers load
// them from the database by the entity's id): one batched read per selection, whatever the number of
// entities; `meta.pagination` is counted from `info.args` as v4's does.
import {
  getNamedType, isObjectType,
  type FieldNode, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema,
} from 'graphql';
import type { Attribute, ContentType } from '../../model/types';
import type { Entity } from '../../query/types';
import { parseRestQuery } from '../../query/parse-query';
import type { GraphqlContext } from '../context';
import type { GraphqlDoor } from '../door';
import { entityParams } from '../read-plan';
import { readByIds } from '../read-loader';
import { plannerOf } from '../resolvers';
import { entryOf } from '../shape';
import { entityName, entityResponseCollectionName, entityResponseName, relationResponseCollectionName } from '../schema/naming';

export interface ResponseInfo {
  args: Record<string, unknown>;
  resourceUID?: string;
}

/** v4's `format` service */
export function createFormatService() {
  return {
    returnTypes: {
      toEntityResponse(value: unknown, info: Partial<ResponseInfo> = {}) {
        const { args = {}, resourceUID } = info;
        return { value, info: { args, resourceUID } };
      },
      toEntityResponseCollection(nodes: unknown, info: Partial<ResponseInfo> = {}) {
        const { args = {}, resourceUID } = info;
        return { nodes, info: { args, resourceUID } };
      },
    },
  };
}

type Obj = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, GraphqlContext>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
/** a v4 `{ value, info }` (ours is `{ data }`) */
const isV4Single = (p: unknown): p is { value: unknown; info?: ResponseInfo } => isObj(p) && !('data' in p) && 'value' in p;
/** a v4 `{ nodes, info }` (ours is `{ data, meta }`) */
const isV4Collection = (p: unknown): p is { nodes: unknown; info?: ResponseInfo } => isObj(p) && !('data' in p) && 'nodes' in p;

export interface ResponseDeps {
  door: GraphqlDoor;
  /** v4's `strapi.entityService.count(uid, params)` (meta.pagination of a v4 collection) */
  count(uid: string, params: Obj): Promise<number>;
}

/**
 * Resolvers on the response types of every content type that read both shapes, and on `<Type>Entity.attributes`
 * giving project code the entity's `id` on the attributes object (v4's parent there is the whole entity).
 */
export function attachResponseResolvers(schema: GraphQLSchema, deps: ResponseDeps): void {
  const { door } = deps;
  const reads = new WeakMap<GraphqlContext, EntityReads>();
  const readsOf = (ctx: GraphqlContext) => {
    let r = reads.get(ctx);
    if (!r) reads.set(ctx, (r = new EntityReads(door, ctx)));
    return r;
  };
  const fieldOf = (typeName: string, field: string) => {
    const type = schema.getType(typeName);
    return isObjectType(type) ? type.getFields()[field] : undefined;
  };
  const set = (typeName: string, field: string, resolve: (previous: Resolver | undefined) => Resolver) => {
    const f = fieldOf(typeName, field);
    if (f) f.resolve = resolve(f.resolve as Resolver | undefined) as never;
  };
  const entries = (ct: ContentType, nodes: unknown, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
    Promise.resolve(nodes).then((list) => (Array.isArray(list) ? readsOf(ctx).entries(ct, list, info) : []));

  for (const ct of door.model.contentTypes.values()) {
    set(entityResponseName(ct), 'data', () => (parent, _args, ctx, info) => {
      if (!isV4Single(parent)) return (parent as Obj).data;
      return Promise.resolve(parent.value).then((value) => (isObj(value) ? readsOf(ctx).entries(ct, [value], info).then((l) => l[0]) : null));
    });
    set(entityResponseCollectionName(ct), 'data', () => (parent, _args, ctx, info) => (isV4Collection(parent) ? entries(ct, parent.nodes, ctx, info) : (parent as Obj).data));
    set(entityResponseCollectionName(ct), 'meta', () => (parent) => (isV4Collection(parent) ? { [V4_INFO]: parent.info ?? { args: {} } } : (parent as Obj).meta));
    set(relationResponseCollectionName(ct), 'data', (previous) => (parent, args, ctx, info) =>
      isV4Collection(parent) ? entries(ct, parent.nodes, ctx, info) : previous ? previous(parent, args, ctx, info) : (parent as Obj).data);
    set(entityName(ct), 'attributes', () => (parent) => withId((parent as Obj).attributes, (parent as Obj).id));
  }
  set('ResponseCollectionMeta', 'pagination', () => (parent, _args, ctx) => {
    const info = isObj(parent) ? (parent as { [V4_INFO]?: ResponseInfo })[V4_INFO] : undefined;
    return info ? v4Pagination(deps, ctx, info) : (parent as Obj).pagination;
  });
}

const V4_INFO = Symbol('tessera.v4ResponseInfo');

/** the attributes object with the entity's id readable (not enumerable: it is no attribute) */
function withId(attributes: unknown, id: unknown): unknown {
  if (isObj(attributes) && !('id' in attributes) && id !== undefined) Object.defineProperty(attributes, 'id', { value: id, configurable: true });
  return attributes;
}

/**
 * v4's ResponseCollectionMeta.pagination for `{ nodes, info }`: the args checked for the caller, the entries
 * counted with them, and page numbers from their `start` and `limit` (which v4's `transformArgs` sets; without
 * them v4's numbers are NaN, which GraphQL's Int refuses, as it does here).
 */
async function v4Pagination(deps: ResponseDeps, ctx: GraphqlContext, info: ResponseInfo) {
  const { door } = deps;
  const uid = String(info.resourceUID);
  const ct = door.model.require(uid);
  const args = info.args ?? {};
  const { start, limit } = args as { start?: number; limit?: number };
  const countArgs: Obj = {};
  for (const key of ['filters', 'publicationState', 'locale'] as const) if (args[key] !== undefined) countArgs[key] = args[key];
  parseRestQuery(door.queryContext(ctx.auth, door.unbounded), ct, countArgs, 'find');
  const total = await deps.count(uid, countArgs);
  const safeLimit = Math.max(Number(limit), 1);
  const pageSize = limit === -1 ? total - Number(start) : safeLimit;
  const pageCount = limit === -1 ? safeLimit : Math.ceil(total / safeLimit);
  const page = limit === -1 ? safeLimit : Math.floor(Number(start) / safeLimit) + 1;
  return { total, page, pageSize, pageCount };
}

interface Pending {
  ct: ContentType;
  info: GraphQLResolveInfo;
  entities: Obj[];
  waiting: Array<{ from: number; to: number; resolve(entries: unknown[]): void; reject(err: unknown): void }>;
}

/**
 * One request's reads for v4 values: the entities of one selection (a field node) from every parent of a level
 * are read together, after that level's resolvers have all asked.
 */
class EntityReads {
  private readonly pending = new Map<FieldNode, Map<string, Pending>>();
  private scheduled = false;

  constructor(private readonly door: GraphqlDoor, private readonly ctx: GraphqlContext) {}

  entries(ct: ContentType, entities: unknown[], info: GraphQLResolveInfo): Promise<unknown[]> {
    const node = info.fieldNodes[0];
    let byUid = this.pending.get(node);
    if (!byUid) this.pending.set(node, (byUid = new Map()));
    let p = byUid.get(ct.uid);
    if (!p) byUid.set(ct.uid, (p = { ct, info, entities: [], waiting: [] }));
    const batch = p;
    const from = batch.entities.length;
    batch.entities.push(...entities.map((e) => (isObj(e) ? e : {})));
    return new Promise((resolve, reject) => {
      batch.waiting.push({ from, to: batch.entities.length, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batches = [...this.pending.values()].flatMap((m) => [...m.values()]);
      this.pending.clear();
      for (const b of batches) {
        this.run(b).then(
          (entries) => b.waiting.forEach((w) => w.resolve(entries.slice(w.from, w.to))),
          (err) => b.waiting.forEach((w) => w.reject(err)),
        );
      }
    });
  }

  private async run(b: Pending): Promise<unknown[]> {
    const { door, ctx } = this;
    const { ct, info } = b;
    const planner = plannerOf(door, ctx, info);
    const entityType = getNamedType(info.returnType) as GraphQLObjectType;
    const { populate } = entityParams(planner, ct, entityType, info.fieldNodes) as { populate?: Obj };
    let loaded = new Map<unknown, Entity>();
    const ids = [...new Set(b.entities.map((e) => e.id).filter((id) => id !== undefined && id !== null))];
    if (populate && ids.length) loaded = await readByIds(door, ctx, ct, ids, populate);
    return b.entities.map((entity) => {
      const merged: Obj = { ...entity };
      if (populate) {
        const read = loaded.get(entity.id);
        for (const name of Object.keys(populate)) merged[name] = read ? read[name] : emptyValue(ct.attributes[name]);
      }
      return entryOf(door.model, ct, merged as Entity, planner.needsLoader);
    });
  }
}

/** what an entity without a row answers for a relation, media, component or zone */
function emptyValue(attr: Attribute | undefined): unknown {
  if (!attr) return null;
  if (attr.kind === 'relation') return attr.many ? [] : null;
  if (attr.kind === 'media') return attr.multiple ? [] : null;
  if (attr.kind === 'component') return attr.repeatable ? [] : null;
  return attr.kind === 'dynamiczone' ? [] : null;
}
