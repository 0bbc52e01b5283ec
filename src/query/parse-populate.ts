// `populate` in every v4 form -> the storage populate tree (query/types.ts), each node with its fields,
// filters, sort, count and nested population. Forms (as v4 reads them):
//   populate=*                          one level of every relation, media, component and dynamic zone
//   populate=a,b.c | populate[0]=a.b    names and dotted paths (through relations, components and zones)
//   populate[a]=true|false|t|f|1|0|*    one attribute on or off
//   populate[a][fields|filters|sort|populate|count|start|limit]=...
//   populate[zone][populate]=*          dynamic zone, shared strategy (applied to each component)
//   populate[zone][on][cat.comp][...]   dynamic zone, per-component strategy (only those components)
// Names that are unknown, private, not relational or of a type the caller may not read are left out, as
// v4 does. Forms v4 answers with a 500 (an object inside an array, `populate[a]` with no value, a bad
// `count`) are merged or answered with a 400 here (docs/compatibility.md). Depth and size are bounded.
import type { Attribute, ContentType } from '../model/types';
import { PaginationError, ValidationError } from '../errors';
import type { Populate, PopulateNode } from './types';
import { isRelational, isShownCreator, isVisible, visibleScalars } from './visibility';
import { parseFields } from './parse-fields';
import { selectWithSortAttributes } from './sort-selection';
import { parseFilters } from './parse-filters';
import { parseSort } from './parse-sort';
import { isObject, MAX_POPULATE_DEPTH, relationTarget, type QueryContext } from './query-context';
import { isMediaMorph, morphTypes } from '../storage/media-morph';

/** populated attributes in one request (each one is a query): a bound on the work one request can ask for */
export const MAX_POPULATE_NODES = 200;

/** A node while parsing: `select` unset means the target's default fields (filled in by `finish`). */
interface Draft {
  select?: string[];
  where?: PopulateNode['where'];
  orderBy?: PopulateNode['orderBy'];
  limit?: number;
  offset?: number;
  count?: boolean;
  publicationState?: 'live' | 'preview';
  populate?: Drafts;
  /** dynamic zones: per component uid */
  on?: Record<string, Draft>;
  /** dynamic zones: only the components named in `on` (per-component strategy) */
  onOnly?: boolean;
}
type Drafts = Record<string, Draft>;

class Run {
  readonly maxDepth: number;
  nodes = 0;
  constructor(readonly ctx: QueryContext) {
    this.maxDepth = ctx.maxPopulateDepth ?? MAX_POPULATE_DEPTH;
  }
  /** an attribute populated at `level` (1 = the entry's own attributes) */
  enter(level: number): void {
    if (level > this.maxDepth) throw new ValidationError(`Invalid populate: nested deeper than ${this.maxDepth} levels`);
    if (++this.nodes > MAX_POPULATE_NODES) throw new ValidationError(`Invalid populate: more than ${MAX_POPULATE_NODES} populated attributes`);
  }
}

/** v4's parseType boolean with forceCast */
function truthy(v: unknown): boolean {
  if (v === 'true' || v === 't' || v === '1' || v === 1) return true;
  if (v === 'false' || v === 'f' || v === '0' || v === 0) return false;
  return Boolean(v);
}

/** v4's strict boolean (a 500 in v4 when invalid) */
function strictBoolean(v: unknown, name: string): boolean {
  if (v === true || v === 'true' || v === 't' || v === '1' || v === 1) return true;
  if (v === false || v === 'false' || v === 'f' || v === '0' || v === 0) return false;
  throw new ValidationError(`Invalid ${name} parameter. Expected "t","1","true","false","0","f"`);
}

function nonNegativeInt(v: unknown, name: string): number {
  const n = typeof v === 'number' ? v : Number(String(v));
  if (!Number.isInteger(n)) throw new ValidationError(`Invalid populate parameter ${name}: expected an integer`);
  return n;
}

/** v4 `publicationState` inside a populate node; a plain Error (500) in v4 when invalid */
function parsePublicationState(v: unknown): 'live' | 'preview' {
  if (v === 'live' || v === 'preview') return v;
  throw new ValidationError(`Invalid publicationState. Expected "live" or "preview"`);
}

function populatable(ctx: QueryContext, ct: ContentType, name: string): Attribute | undefined {
  const attr = Object.prototype.hasOwnProperty.call(ct.attributes, name) ? ct.attributes[name] : undefined;
  if (!attr || !isRelational(attr) || !isVisible(attr, ctx.visibility)) return undefined;
  if (isMediaMorph(ct, attr)) return attr;
  if (attr.kind === 'relation' || attr.kind === 'media') {
    const target = relationTarget(ctx.model, attr);
    if (!target || (!isShownCreator(ct, attr) && !ctx.canRead(target.uid))) return undefined; // v4 sanitizes these away
  }
  return attr;
}

/** the model a relation, media or component points at */
function targetOf(ctx: QueryContext, attr: Attribute): ContentType {
  return relationTarget(ctx.model, attr)!;
}

/** attributes populated per type (`on`): dynamic zones, and a file's `related` (a morph relation) */
function isPolymorphic(attr: Attribute): boolean {
  return attr.kind === 'dynamiczone' || (attr.kind === 'relation' && attr.relation === 'morphToMany');
}

/** the types a polymorphic attribute populates by default */
function zoneComponents(ctx: QueryContext, attr: Attribute): ContentType[] {
  if (attr.kind === 'dynamiczone') return attr.components.map((uid) => ctx.model.require(uid));
  return isPolymorphic(attr) ? morphTypes(ctx.model, (uid) => ctx.canRead(uid)) : [];
}

function merge(a: Draft | undefined, b: Draft): Draft {
  if (!a) return b;
  const out: Draft = { ...a };
  for (const k of ['select', 'where', 'orderBy', 'limit', 'offset', 'count', 'publicationState'] as const) {
    if (b[k] !== undefined) (out as Record<string, unknown>)[k] = b[k];
  }
  if (b.populate) out.populate = mergeAll(a.populate, b.populate);
  if (b.on) out.on = mergeAll(a.on, b.on);
  // only the named components when both parts name them; a part without `on` asks for all of them
  out.onOnly = Boolean(a.onOnly && b.onOnly);
  return out;
}

function mergeAll(a: Drafts | undefined, b: Drafts): Drafts {
  const out: Drafts = { ...(a ?? {}) };
  for (const [k, v] of Object.entries(b)) out[k] = merge(out[k], v);
  return out;
}

/** A `populate` value (any form) read against `ct`, at `level`, into `into`. */
function addPopulate(run: Run, ct: ContentType, raw: unknown, level: number, into: Drafts): void {
  if (raw === undefined || raw === null) return;
  if (raw === '*') return addStar(run, ct, level, into);
  if (typeof raw === 'string') {
    for (const path of raw.split(',').map((s) => s.trim())) if (path) addPath(run, ct, path.split('.'), level, into);
    return;
  }
  if (Array.isArray(raw)) {
    // v4 answers a 500 for `*` or an object in an array: both are taken as they read here
    for (const item of raw) {
      if (typeof item !== 'string') addPopulate(run, ct, item, level, into);
      else for (const path of item.split(',').map((s) => s.trim())) {
        if (path === '*') addStar(run, ct, level, into);
        else if (path) addPath(run, ct, path.split('.'), level, into);
      }
    }
    return;
  }
  if (!isObject(raw)) throw new ValidationError('Invalid populate parameter. Expected a string, an array of strings, a populate object');
  for (const [name, value] of Object.entries(raw)) {
    const attr = populatable(run.ctx, ct, name);
    if (!attr) continue;
    const draft = nodeFor(run, attr, value, level);
    if (draft) into[name] = merge(into[name], draft);
  }
}

function addStar(run: Run, ct: ContentType, level: number, into: Drafts): void {
  for (const name of Object.keys(ct.attributes)) {
    const attr = populatable(run.ctx, ct, name);
    if (!attr) continue;
    run.enter(level);
    into[name] = merge(into[name], {});
  }
}

/** `a.b.c`: each segment populated, through relations, components, media and dynamic zones */
function addPath(run: Run, ct: ContentType, path: string[], level: number, into: Drafts): void {
  const [head, ...rest] = path;
  const attr = populatable(run.ctx, ct, head);
  if (!attr) return;
  run.enter(level);
  const draft: Draft = {};
  if (rest.length) {
    if (isPolymorphic(attr)) {
      draft.on = {};
      for (const comp of zoneComponents(run.ctx, attr)) {
        const nested: Drafts = {};
        addPath(run, comp, rest, level + 1, nested);
        draft.on[comp.uid] = { populate: nested };
      }
    } else {
      draft.populate = {};
      addPath(run, targetOf(run.ctx, attr), rest, level + 1, draft.populate);
    }
  }
  into[head] = merge(into[head], draft);
}

/** `populate[a]=<value>` for one attribute: on/off, or an object of options. */
function nodeFor(run: Run, attr: Attribute, value: unknown, level: number): Draft | null {
  if (Array.isArray(value)) {
    // `populate[a]=true&populate[a][fields]=x` (a 500 in v4): the parts merged
    let out: Draft | null = null;
    for (const part of value) {
      const d = nodeFor(run, attr, part, level);
      if (d) out = merge(out ?? undefined, d);
    }
    return out;
  }
  // `populate[a]` without a value (a 500 in v4) populates it
  if (value !== null && !isObject(value)) {
    if (!truthy(value)) return null;
    run.enter(level);
    return {};
  }
  run.enter(level);
  if (value === null) return {};
  if (isPolymorphic(attr)) return zoneNode(run, attr, value, level);
  const target = targetOf(run.ctx, attr);
  const d = targetNode(run, target, attr.kind !== 'media', value, level);
  // a relation, component or media level is loaded through its link table: joined in v4 (query/sort-selection.ts)
  d.select = selectWithSortAttributes(target, d.select, d.orderBy, true);
  return d;
}

/** options of a relation, media or component node (also one component of a zone) */
function targetNode(run: Run, target: ContentType, countable: boolean, value: Record<string, unknown>, level: number): Draft {
  const ctx = run.ctx;
  const d: Draft = {};
  if (value.fields !== undefined) d.select = parseFields(ctx, target, value.fields);
  if (value.filters !== undefined) d.where = parseFilters(ctx, target, value.filters);
  if (value.sort !== undefined) d.orderBy = parseSort(ctx, target, value.sort);
  if (value.populate !== undefined) {
    d.populate = {};
    addPopulate(run, target, value.populate, level + 1, d.populate);
  }
  // v4 counts relations and components; on media and dynamic zones the option is ignored
  if (value.count !== undefined && value.count !== null && value.count !== '' && strictBoolean(value.count, 'count') && countable) d.count = true;
  const isPage = value.page !== undefined || value.pageSize !== undefined;
  const isOffset = value.start !== undefined || value.limit !== undefined;
  if (isPage && isOffset) throw new PaginationError('Invalid pagination attributes. You cannot use page and offset pagination in the same query');
  // per parent here (v4 applies them to all parents together); page/pageSize are ignored as in v4
  if (!d.count) {
    if (value.start !== undefined) d.offset = Math.max(0, nonNegativeInt(value.start, 'start'));
    if (value.limit !== undefined) {
      const limit = nonNegativeInt(value.limit, 'limit');
      if (limit >= 0) d.limit = limit;
    }
  }
  if (value.publicationState !== undefined) d.publicationState = parsePublicationState(value.publicationState);
  return d;
}

/**
 * A dynamic zone or a file's `related`: `on` (only the named types) or options applied to each type. For
 * `related`, fields a type does not have are skipped for that type (v4 answers a 500), and its filters and
 * sort are not applied.
 */
function zoneNode(run: Run, attr: Attribute, value: Record<string, unknown>, level: number): Draft {
  const morph = attr.kind !== 'dynamiczone';
  const allowed = morph ? new Set(zoneComponents(run.ctx, attr).map((t) => t.uid)) : null;
  if (value.on !== undefined && value.on !== null) {
    if (!isObject(value.on)) throw new ValidationError('Invalid populate parameter on');
    const on: Record<string, Draft> = {};
    for (const [uid, sub] of Object.entries(value.on)) {
      // any component of the project, as v4 (an unknown uid is a 500 there and matches nothing here)
      const type = morph ? (allowed!.has(uid) ? run.ctx.model.get(uid) : undefined) : run.ctx.model.components.get(uid);
      if (!type) continue;
      if (isObject(sub)) on[uid] = targetNode(run, type, false, morph ? lenient(run.ctx, type, sub) : sub, level);
      else if (truthy(sub)) on[uid] = {};
    }
    return { on, onOnly: true };
  }
  const on: Record<string, Draft> = {};
  for (const type of zoneComponents(run.ctx, attr)) {
    on[type.uid] = targetNode(run, type, false, morph ? lenient(run.ctx, type, value) : value, level);
  }
  return { on };
}

/** options of a `related` node as they apply to one of its types */
function lenient(ctx: QueryContext, type: ContentType, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { populate: value.populate };
  if (value.fields !== undefined) {
    const names = (Array.isArray(value.fields) ? value.fields : String(value.fields).split(',')).map((f) => String(f).trim());
    const visible = defaultSelect(ctx, type);
    out.fields = names.includes('*') ? undefined : names.filter((n) => visible.includes(n));
  }
  return out;
}

/** default fields: visible scalars, never a password (except for trusted code: v4's services return the hash) */
function defaultSelect(ctx: QueryContext, ct: ContentType): string[] {
  if (ctx.visibility.trusted) return visibleScalars(ct, ctx.visibility);
  return visibleScalars(ct, ctx.visibility).filter((n) => {
    const a = ct.attributes[n];
    return a.kind !== 'scalar' || a.type !== 'password';
  });
}

/** Drafts -> populate nodes: default fields filled in, zones expanded to their components. */
function finish(ctx: QueryContext, ct: ContentType, drafts: Drafts): Record<string, PopulateNode> {
  const out: Record<string, PopulateNode> = {};
  for (const [name, d] of Object.entries(drafts)) {
    const attr = ct.attributes[name];
    if (isPolymorphic(attr)) {
      const on: Record<string, PopulateNode> = {};
      const all = zoneComponents(ctx, attr).map((t) => t.uid);
      const uids = d.onOnly ? Object.keys(d.on ?? {}) : [...new Set([...all, ...Object.keys(d.on ?? {})])];
      for (const uid of uids) on[uid] = finishNode(ctx, ctx.model.require(uid), d.on?.[uid] ?? {});
      out[name] = { on };
    } else {
      out[name] = finishNode(ctx, targetOf(ctx, attr), d);
    }
  }
  return out;
}

function finishNode(ctx: QueryContext, target: ContentType, d: Draft): PopulateNode {
  const node: PopulateNode = { select: d.select ?? defaultSelect(ctx, target) };
  if (d.where !== undefined) node.where = d.where;
  if (d.orderBy !== undefined) node.orderBy = d.orderBy;
  if (d.limit !== undefined) node.limit = d.limit;
  if (d.offset !== undefined) node.offset = d.offset;
  if (d.count) node.count = true;
  if (d.publicationState) node.publicationState = d.publicationState;
  if (d.populate && Object.keys(d.populate).length) node.populate = finish(ctx, target, d.populate);
  return node;
}

export function parsePopulate(ctx: QueryContext, ct: ContentType, populate: unknown): Populate | undefined {
  if (populate === undefined || populate === null || populate === '') return undefined;
  const run = new Run(ctx);
  const drafts: Drafts = {};
  addPopulate(run, ct, populate, 1, drafts);
  return Object.keys(drafts).length ? finish(ctx, ct, drafts) : undefined;
}

/**
 * v4's database-level form of a `populate` given as names (`a,b.c`, `populate[0]=a`): the list its entity
 * service hands the query engine, and so what lifecycle hooks see (strapi-plugin-populate-deep reads
 * `['deep', '3']` there). As v4's query sanitizer leaves it: names that are no attribute stay, attributes
 * the validated tree does not populate (private, unreadable, not relational) go. Undefined for the other
 * forms (`*` and objects: v4's sanitizer expands them into the object the validated tree mirrors).
 */
export function populateNames(ct: ContentType, raw: unknown, validated: Populate | undefined, maxDepth = MAX_POPULATE_DEPTH): string[] | undefined {
  const items = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? (raw as string[]) : undefined;
  if (!items) return undefined;
  const names = [...new Set(items.flatMap((v) => v.split(',').map((s) => s.trim())))];
  if (names.includes('*')) return undefined;
  const kept = typeof validated === 'object' && !Array.isArray(validated) ? validated : {};
  return names.filter((name) => {
    const root = name.split('.')[0];
    return !Object.prototype.hasOwnProperty.call(ct.attributes, root) || Object.prototype.hasOwnProperty.call(kept, root);
  }).map((name) => (DEPTH.test(name) && Number(name) > maxDepth ? String(maxDepth) : name));
}

/**
 * A number among the names is a depth a hook will expand (populate-deep's `deep,20` builds a tree that grows
 * exponentially with it: seconds of CPU and gigabytes per request): capped at rest.maxPopulateDepth, the depth
 * a request's own populate may reach.
 */
const DEPTH = /^\d+$/;
