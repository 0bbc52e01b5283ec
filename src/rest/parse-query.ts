// A REST query string (already parsed by qs) -> validated storage params. Everything a client names is
// checked against the model here: unknown, private or forbidden keys are a 400 `Invalid parameter`,
// values are cast by attribute type, and every depth and size is bounded.
import type { Attribute, ContentType, Model, ScalarAttribute } from '../model/types';
import { ValidationError } from '../errors';
import { OPERATOR_SET, type FindParams, type Populate, type PopulateNode, type Where } from '../query/types';
import { isRelational, isVisible, visibleScalars, type Visibility } from '../query/visibility';
import { castFilterValue } from './cast-filter-value';
import { parsePagination, type Pagination, type PaginationConfig } from './pagination';

export interface QueryContext {
  model: Model;
  visibility: Visibility;
  /** may the caller `find` this model (relations in filters, sort and populate) */
  canRead(uid: string): boolean;
  pagination: PaginationConfig;
}

export interface RestQuery {
  /** marks a query that was already validated (a service called by a core controller) */
  readonly parsed: true;
  params: FindParams;
  pagination?: Pagination;
  publicationState: 'live' | 'preview';
  locale?: string;
}

const MAX_POPULATE_DEPTH = 10;
const MAX_FILTER_DEPTH = 20;

export function invalid(key: string): never {
  throw new ValidationError(`Invalid parameter ${key}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** qs turns long arrays into objects with numeric keys */
function asList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  return [v];
}

function relationTarget(model: Model, attr: Attribute): ContentType | undefined {
  if (attr.kind === 'relation') return attr.relation.startsWith('morph') ? undefined : model.get(attr.target);
  if (attr.kind === 'media') return model.get('plugin::upload.file');
  if (attr.kind === 'component') return model.get(attr.component);
  return undefined;
}

function readableAttribute(ctx: QueryContext, ct: ContentType, key: string): Attribute {
  const attr = ct.attributes[key];
  if (!attr || !isVisible(attr, ctx.visibility)) invalid(key);
  if (attr.kind === 'relation' || attr.kind === 'media') {
    const target = relationTarget(ctx.model, attr);
    if (!target || !ctx.canRead(target.uid)) invalid(key);
  }
  return attr;
}

// ---- filters ----

export function parseFilters(ctx: QueryContext, ct: ContentType, filters: unknown, depth = 0): Where | undefined {
  if (filters === undefined || filters === null || filters === '') return undefined;
  if (depth > MAX_FILTER_DEPTH) throw new ValidationError('Filters are nested too deeply');
  if (Array.isArray(filters)) return { $and: filters.map((f) => parseFilters(ctx, ct, f, depth + 1) ?? {}) };
  if (!isObject(filters)) invalid('filters');
  const out: Where = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === '$and' || key === '$or') {
      out[key] = asList(value).map((f) => parseFilters(ctx, ct, f, depth + 1) ?? {});
    } else if (key === '$not') {
      out[key] = parseFilters(ctx, ct, value, depth + 1) ?? {};
    } else if (key.startsWith('$')) {
      continue; // v4 drops unknown operators at this level
    } else if (key === 'id') {
      out.id = parseScalarFilter(ID, value, depth);
    } else {
      const attr = readableAttribute(ctx, ct, key);
      if (attr.kind === 'scalar') out[key] = parseScalarFilter(attr, value, depth);
      else if (attr.kind === 'dynamiczone' || (attr.kind === 'relation' && attr.relation.startsWith('morph'))) invalid(key);
      else {
        const target = relationTarget(ctx.model, attr)!;
        out[key] = isObject(value) && !Object.keys(value).every((k) => OPERATOR_SET.has(k))
          ? parseFilters(ctx, target, value, depth + 1) ?? {}
          : parseScalarFilter(ID, value, depth); // `filters[author]=3`, `filters[author][$null]=true`
      }
    }
  }
  return out;
}

const ID: ScalarAttribute = {
  kind: 'scalar', name: 'id', type: 'integer', column: 'id', unique: true, private: false, required: false,
  writable: false, localized: true, raw: { type: 'integer' },
};

function parseScalarFilter(attr: ScalarAttribute, value: unknown, depth: number): unknown {
  if (depth > MAX_FILTER_DEPTH) throw new ValidationError('Filters are nested too deeply');
  if (Array.isArray(value)) return { $in: value.map((v) => castFilterValue(attr, '$eq', v)) };
  if (!isObject(value)) return castFilterValue(attr, '$eq', value);
  const out: Record<string, unknown> = {};
  for (const [op, v] of Object.entries(value)) {
    if (op === '$not') out.$not = parseScalarFilter(attr, v, depth + 1);
    else if (op === '$and' || op === '$or') out[op] = asList(v).map((x) => parseScalarFilter(attr, x, depth + 1));
    else if (!OPERATOR_SET.has(op)) continue; // v4 silently drops unknown operators
    else if (op === '$in' || op === '$notIn') out[op] = asList(v).map((x) => castFilterValue(attr, op, x));
    else if (op === '$between') {
      const pair = asList(v);
      if (pair.length !== 2) throw new ValidationError(`$between needs two values for ${attr.name}`);
      out[op] = pair.map((x) => castFilterValue(attr, op, x));
    } else out[op] = castFilterValue(attr, op, v);
  }
  return out;
}

// ---- sort ----

function checkSortPath(ctx: QueryContext, ct: ContentType, path: string[]): void {
  const [head, ...rest] = path;
  if (head === 'id' && rest.length === 0) return;
  const attr = readableAttribute(ctx, ct, head);
  if (attr.kind === 'scalar') {
    if (rest.length) invalid(head);
    return;
  }
  if (attr.kind === 'dynamiczone' || rest.length === 0) invalid(head);
  const target = relationTarget(ctx.model, attr);
  if (!target) invalid(head);
  checkSortPath(ctx, target, rest);
}

export function parseSort(ctx: QueryContext, ct: ContentType, sort: unknown): Array<Record<string, unknown>> | undefined {
  if (sort === undefined || sort === null || sort === '') return undefined;
  const items: Array<{ path: string[]; dir: string }> = [];
  const walk = (v: unknown, prefix: string[], depth: number) => {
    if (depth > MAX_FILTER_DEPTH) invalid('sort');
    if (typeof v === 'string') {
      for (const part of v.split(',')) {
        const trimmed = part.trim();
        if (!trimmed) continue;
        const [field, dir, extra] = trimmed.split(':');
        if (extra !== undefined) throw new ValidationError(`Invalid sort parameter ${trimmed}`);
        items.push({ path: [...prefix, ...field.split('.')], dir: dir ?? 'asc' });
      }
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, prefix, depth + 1));
    else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (/^\d+$/.test(k) && prefix.length === 0) walk(x, prefix, depth + 1);
        else if (isObject(x)) walk(x, [...prefix, k], depth + 1);
        else items.push({ path: [...prefix, k], dir: String(x ?? 'asc') });
      }
    } else invalid('sort');
  };
  walk(sort, [], 0);
  return items.map(({ path, dir }) => {
    const d = dir.toLowerCase();
    if (d !== 'asc' && d !== 'desc') throw new ValidationError(`Invalid sort direction "${dir}" for ${path.join('.')}: expected asc or desc`);
    checkSortPath(ctx, ct, path);
    // nested object form, the storage layer's orderBy
    return path.reduceRight<Record<string, unknown>>((acc, key, i) => (i === path.length - 1 ? { [key]: d } : { [key]: acc }), {});
  });
}

// ---- fields ----

export function parseFields(ctx: QueryContext, ct: ContentType, fields: unknown): string[] {
  const defaults = visibleScalars(ct, ctx.visibility);
  if (fields === undefined || fields === null || fields === '') return defaults;
  const names = asList(fields).flatMap((f) => (typeof f === 'string' ? f.split(',') : invalid('fields'))).map((s) => s.trim()).filter(Boolean);
  if (names.includes('*')) return defaults;
  const out: string[] = [];
  for (const name of names) {
    if (name === 'id') continue;
    const attr = ct.attributes[name];
    if (!attr || attr.kind !== 'scalar' || !isVisible(attr, ctx.visibility)) invalid(name);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

// ---- populate ----

function populatableAttribute(ctx: QueryContext, ct: ContentType, name: string): Attribute | undefined {
  const attr = ct.attributes[name];
  if (!attr || !isRelational(attr) || !isVisible(attr, ctx.visibility)) return undefined;
  if (attr.kind === 'relation' || attr.kind === 'media') {
    const target = relationTarget(ctx.model, attr);
    if (!target || !ctx.canRead(target.uid)) return undefined; // v4 sanitizes these away
  }
  return attr;
}

function targetsOf(ctx: QueryContext, attr: Attribute): ContentType[] {
  if (attr.kind === 'dynamiczone') return attr.components.map((c) => ctx.model.require(c));
  const t = relationTarget(ctx.model, attr);
  return t ? [t] : [];
}

/** Default node for a populated attribute: visible fields only, so private columns are never read. */
function leaf(ctx: QueryContext, attr: Attribute): PopulateNode {
  if (attr.kind === 'dynamiczone') {
    return { on: Object.fromEntries(attr.components.map((c) => [c, { select: visibleScalars(ctx.model.require(c), ctx.visibility) }])) };
  }
  const target = targetsOf(ctx, attr)[0];
  return target ? { select: visibleScalars(target, ctx.visibility) } : {};
}

export function parsePopulate(ctx: QueryContext, ct: ContentType, populate: unknown, depth = 0): Populate | undefined {
  if (populate === undefined || populate === null || populate === '' || populate === false || populate === 'false') return undefined;
  if (depth > MAX_POPULATE_DEPTH) throw new ValidationError('Populate is nested too deeply');
  const out: Record<string, PopulateNode> = {};
  if (populate === '*' || populate === true || populate === 'true') {
    for (const name of Object.keys(ct.attributes)) {
      const attr = populatableAttribute(ctx, ct, name);
      if (attr) out[name] = leaf(ctx, attr);
    }
    return out;
  }
  if (typeof populate === 'string' || Array.isArray(populate)) {
    const paths = asList(populate).flatMap((p) => (typeof p === 'string' ? p.split(',') : invalid('populate'))).map((s) => s.trim()).filter(Boolean);
    if (paths.includes('*')) return parsePopulate(ctx, ct, '*', depth);
    for (const path of paths) addPath(ctx, ct, out, path.split('.'), depth);
    return out;
  }
  if (!isObject(populate)) invalid('populate');
  for (const [name, value] of Object.entries(populate)) {
    if (name === '*') {
      Object.assign(out, parsePopulate(ctx, ct, '*', depth));
      continue;
    }
    const attr = populatableAttribute(ctx, ct, name);
    if (!attr || value === false || value === 'false') continue;
    out[name] = parseNode(ctx, attr, value, depth + 1);
  }
  return out;
}

function addPath(ctx: QueryContext, ct: ContentType, out: Record<string, PopulateNode>, path: string[], depth: number): void {
  if (depth > MAX_POPULATE_DEPTH) throw new ValidationError('Populate is nested too deeply');
  const [head, ...rest] = path;
  const attr = populatableAttribute(ctx, ct, head);
  if (!attr) return;
  const node = out[head] ?? leaf(ctx, attr);
  out[head] = node;
  if (!rest.length) return;
  if (attr.kind === 'dynamiczone') return;
  const target = targetsOf(ctx, attr)[0];
  const nested = (node.populate ?? {}) as Record<string, PopulateNode>;
  addPath(ctx, target, nested, rest, depth + 1);
  node.populate = nested;
}

function parseNode(ctx: QueryContext, attr: Attribute, value: unknown, depth: number): PopulateNode {
  const node = leaf(ctx, attr);
  if (value === true || value === 'true' || value === '*') return value === '*' ? withNested(ctx, attr, node, '*', depth) : node;
  if (!isObject(value)) return node;
  if (attr.kind === 'dynamiczone') {
    if (isObject(value.on)) {
      const on: Record<string, PopulateNode> = {};
      for (const [uid, sub] of Object.entries(value.on)) {
        if (!attr.components.includes(uid)) continue;
        const comp = ctx.model.require(uid);
        on[uid] = { select: visibleScalars(comp, ctx.visibility) };
        if (isObject(sub)) {
          if (sub.fields !== undefined) on[uid].select = parseFields(ctx, comp, sub.fields);
          if (sub.populate !== undefined) on[uid].populate = parsePopulate(ctx, comp, sub.populate, depth + 1);
        }
      }
      node.on = on;
    } else if (value.populate !== undefined) {
      node.populate = value.populate as Populate; // applied per component below
      node.on = Object.fromEntries(attr.components.map((uid) => {
        const comp = ctx.model.require(uid);
        return [uid, { select: visibleScalars(comp, ctx.visibility), populate: parsePopulate(ctx, comp, value.populate, depth + 1) }];
      }));
      delete node.populate;
    }
    return node;
  }
  const target = targetsOf(ctx, attr)[0];
  if (!target) return node;
  if (value.fields !== undefined) node.select = parseFields(ctx, target, value.fields);
  if (value.filters !== undefined) node.where = parseFilters(ctx, target, value.filters);
  if (value.sort !== undefined) node.orderBy = parseSort(ctx, target, value.sort);
  if (value.populate !== undefined) node.populate = parsePopulate(ctx, target, value.populate, depth);
  if (value.count === true || value.count === 'true') node.count = true;
  return node;
}

function withNested(ctx: QueryContext, attr: Attribute, node: PopulateNode, populate: unknown, depth: number): PopulateNode {
  const target = targetsOf(ctx, attr)[0];
  if (target && attr.kind !== 'dynamiczone') node.populate = parsePopulate(ctx, target, populate, depth);
  return node;
}

// ---- the whole query ----

export function isRestQuery(v: unknown): v is RestQuery {
  return typeof v === 'object' && v !== null && (v as { parsed?: unknown }).parsed === true;
}

export function parseRestQuery(ctx: QueryContext, ct: ContentType, raw: Record<string, unknown>, action: 'find' | 'findOne' | 'write'): RestQuery {
  const params: FindParams = {
    select: parseFields(ctx, ct, raw.fields),
    populate: parsePopulate(ctx, ct, raw.populate),
  };
  let pagination: Pagination | undefined;
  if (action === 'find') {
    params.where = parseFilters(ctx, ct, raw.filters);
    params.orderBy = parseSort(ctx, ct, raw.sort);
    pagination = parsePagination(raw.pagination, ctx.pagination);
    params.limit = pagination.limit;
    params.offset = pagination.offset;
  }
  const state = raw.publicationState ?? 'live';
  if (state !== 'live' && state !== 'preview') throw new ValidationError(`Invalid publicationState. Expected "live" or "preview"`);
  return {
    parsed: true,
    params,
    pagination,
    publicationState: state,
    locale: typeof raw.locale === 'string' ? raw.locale : undefined,
  };
}
