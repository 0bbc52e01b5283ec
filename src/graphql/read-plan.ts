// A root field's arguments and selection set -> v4's query parameters (filters, sort, pagination, fields,
// populate, publicationState, locale): the same parameters REST reads from a query string, so the shared
// parser validates them and the shared reader answers them, one batched query per populated level.
//
// Every selected scalar attribute becomes a field, every selected relation, media, component and dynamic zone
// a populate node with that field's own arguments. When a relation is selected twice with different
// arguments (aliases), the first variant is populated; the others are loaded after the read (read-loader.ts).
import {
  getNamedType, isListType, isNonNullType, isObjectType, isUnionType,
  type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType, type GraphQLOutputType, type GraphQLSchema,
} from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields';
import { getArgumentValues } from 'graphql/execution/values';
import type { Attribute, ContentType, Model } from '../model/types';
import { parsePagination, type PaginationConfig } from '../query/pagination';
import { ApplicationError, ForbiddenError, PaginationError } from '../errors';
import { relationTarget } from '../query/query-context';
import { toV4Filters } from './filters';
import { componentName } from './schema/naming';

/** What planning needs of the operation being run (graphql-js' and graphql-jit's resolve info have it). */
export interface Operation {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variableValues: Record<string, unknown>;
}

/** The state of one request's planning: which field nodes the read answers. */
export class ReadPlanner {
  /** some relation field is selected with arguments of its own beside a populated variant */
  needsLoader = false;

  constructor(
    readonly model: Model,
    readonly op: Operation,
    /** nested lists: GraphQL's page size defaults and maximum */
    readonly paging: PaginationConfig,
    /** the request's relation field nodes whose data a read populates, and those whose arguments failed */
    readonly state: PlanState,
    /** checks a relation's own `filters` and `sort` as the shared parser would (throws its error) */
    readonly check?: (target: ContentType, params: Params) => void,
    /** may the caller `find` entries of this type (a relation field to one it may not is FORBIDDEN, as v4) */
    readonly canRead?: (uid: string) => boolean,
  ) {}

  get planned(): WeakSet<FieldNode> {
    return this.state.planned;
  }

  subfields(type: GraphQLObjectType, nodes: readonly FieldNode[]): Map<string, readonly FieldNode[]> {
    return collectSubfields(this.op.schema, this.op.fragments as never, this.op.variableValues, type, nodes);
  }

  args(field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> {
    return getArgumentValues(field, node, this.op.variableValues);
  }
}

type Params = Record<string, unknown>;

/**
 * Per served schema: the object types whose project resolvers (extension/apply.ts) read their parent entity,
 * which v4 hands over whole: every scalar attribute is read for them, selected or not.
 */
export const WHOLE_ENTITY_TYPES = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

export interface PlanState {
  planned: WeakSet<FieldNode>;
  /**
   * relation fields whose own arguments are wrong: v4 resolves each relation per parent, so the error is that
   * field's (once per parent, the field null), not the whole query's
   */
  failed: WeakMap<FieldNode, Error>;
}

const unwrap = (type: GraphQLOutputType): GraphQLOutputType => (isNonNullType(type) ? unwrap(type.ofType) : isListType(type) ? unwrap(type.ofType) : type);

/** the nodes of the fields named `name` below `nodes` of `type` */
function childNodes(p: ReadPlanner, type: GraphQLObjectType, nodes: readonly FieldNode[], name: string): { type: GraphQLObjectType; nodes: FieldNode[] } | undefined {
  const out: FieldNode[] = [];
  for (const group of p.subfields(type, nodes).values()) {
    if (group[0].name.value === name) out.push(...group);
  }
  const field = type.getFields()[name];
  if (!field || out.length === 0) return undefined;
  const child = getNamedType(field.type);
  return isObjectType(child) ? { type: child, nodes: out } : undefined;
}

/** `fields` and `populate` for what `nodes` select of an entity type (`<Type>Entity`: id, attributes) */
export function entityParams(p: ReadPlanner, ct: ContentType, entityType: GraphQLObjectType, nodes: readonly FieldNode[]): Params {
  const attributes = childNodes(p, entityType, nodes, 'attributes');
  return attributes ? attributeParams(p, ct, attributes.type, attributes.nodes) : { fields: ['id'] };
}

/** `{ fields, populate }` of an object type's attributes selection (a content type's or a component's) */
export function attributeParams(p: ReadPlanner, ct: ContentType, type: GraphQLObjectType, nodes: readonly FieldNode[]): Params {
  const fields: string[] = [];
  const populate: Record<string, Params> = {};
  const byName = new Map<string, FieldNode[][]>();
  for (const group of p.subfields(type, nodes).values()) {
    const name = group[0].name.value;
    const attr = ct.attributes[name];
    if (!attr) continue; // id, __typename
    if (attr.kind === 'scalar') {
      if (!fields.includes(name)) fields.push(name);
      continue;
    }
    let groups = byName.get(name);
    if (!groups) byName.set(name, (groups = []));
    groups.push([...group]);
  }
  for (const [name, groups] of byName) {
    const field = type.getFields()[name];
    const attr = ct.attributes[name];
    // the response keys with the same arguments share one populate node; the first variant is populated
    const variants = new Map<string, { args: Record<string, unknown>; nodes: FieldNode[] }>();
    for (const group of groups) {
      const args = p.args(field, group[0]);
      const key = JSON.stringify(args);
      const v = variants.get(key);
      if (v) v.nodes.push(...group);
      else variants.set(key, { args, nodes: group });
    }
    const [first, ...others] = variants.values();
    if (others.length) p.needsLoader = true;
    try {
      if (attr.kind === 'relation' && !attr.relation.startsWith('morph') && p.canRead && !p.canRead(attr.target)) throw new ForbiddenError('Forbidden access');
      populate[name] = attributeNode(p, attr, field.type, first.nodes, first.args);
      for (const n of first.nodes) p.planned.add(n);
    } catch (err) {
      if (!(err instanceof ApplicationError)) throw err;
      for (const n of first.nodes) p.state.failed.set(n, err);
    }
  }
  // files are read whole: signing a private provider's urls needs their provider, hash and ext
  const whole = ct.uid === 'plugin::upload.file' || WHOLE_ENTITY_TYPES.get(p.op.schema)?.has(type.name);
  const out: Params = { fields: whole ? '*' : fields.length ? fields : ['id'] };
  if (Object.keys(populate).length) out.populate = populate;
  return out;
}

/** one populate node: a relation, media, component or dynamic zone with its own arguments */
export function attributeNode(p: ReadPlanner, attr: Attribute, fieldType: GraphQLOutputType, nodes: readonly FieldNode[], args: Record<string, unknown>): Params {
  const named = unwrap(fieldType);
  if (attr.kind === 'dynamiczone' && isUnionType(named)) {
    const on: Record<string, Params> = {};
    for (const uid of attr.components) {
      const comp = p.model.require(uid);
      const type = p.op.schema.getType(componentName(comp));
      on[uid] = isObjectType(type) ? attributeParams(p, comp, type, nodes) : { fields: ['id'] };
    }
    return { on };
  }
  if (attr.kind === 'relation' && attr.relation.startsWith('morph')) return {};
  const target = relationTarget(p.model, attr);
  if (!target || !isObjectType(named)) return {};
  const node: Params = attr.kind === 'component'
    ? attributeParams(p, target, named, nodes)
    : entityOf(p, target, named, nodes);
  const list = listParams(p, target, args);
  // a to-one relation has no publicationState argument: v4 loads it whatever its target's state
  if (attr.kind === 'relation' && !attr.many && target.draftAndPublish) list.publicationState = 'preview';
  if (p.check && (list.filters !== undefined || list.sort !== undefined)) p.check(target, { filters: list.filters, sort: list.sort });
  return { ...node, ...list };
}

/** `<Type>EntityResponse` / `<Type>RelationResponseCollection` -> the entity selection under `data` */
function entityOf(p: ReadPlanner, target: ContentType, wrapper: GraphQLObjectType, nodes: readonly FieldNode[]): Params {
  const data = childNodes(p, wrapper, nodes, 'data');
  return data ? entityParams(p, target, data.type, data.nodes) : { fields: ['id'] };
}

/** a to-many field's `filters`, `sort`, `pagination` and `publicationState` as populate options (per parent) */
function listParams(p: ReadPlanner, target: ContentType, args: Record<string, unknown>): Params {
  const out: Params = {};
  if (args.filters !== undefined && args.filters !== null) out.filters = toV4Filters(p.model, target, args.filters);
  const sort = sortParam(args.sort);
  if (sort !== undefined) out.sort = sort;
  if ('pagination' in args) {
    const page = parsePagination(paginationArg(args.pagination), p.paging);
    out.start = page.offset;
    if (page.limit !== undefined) out.limit = page.limit;
  }
  if (typeof args.publicationState === 'string') out.publicationState = args.publicationState;
  return out;
}

/** `sort: [String]` (a single string is coerced to a list): none when empty */
export function sortParam(sort: unknown): string[] | undefined {
  if (sort === undefined || sort === null) return undefined;
  const list = (Array.isArray(sort) ? sort : [sort]).filter((s): s is string => typeof s === 'string');
  return list.length ? list : undefined;
}

/**
 * A `PaginationArg` as v4's parameters (nulls dropped); mixing the two modes is v4 GraphQL's PaginationError
 * (its own message: REST's differs).
 */
export function paginationArg(value: unknown): Record<string, unknown> {
  const p = definedOnly(value);
  const isPage = p.page !== undefined || p.pageSize !== undefined;
  if (isPage && (p.start !== undefined || p.limit !== undefined)) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  // v4's GraphQL pages of one entry when only `page` is given (verified on 4.26.2)
  if (p.page !== undefined && p.pageSize === undefined) p.pageSize = 1;
  return p;
}

/** an input object without its null or absent keys (GraphQL's explicit nulls mean "not given" here) */
export function definedOnly(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null));
}
