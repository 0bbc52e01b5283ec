// `populate` in every v4 form -> the storage populate tree, with each level's fields, filters and sort.
import type { Attribute, ContentType } from '../model/types';
import { ValidationError } from '../errors';
import type { Populate, PopulateNode } from './types';
import { isRelational, isVisible, visibleScalars } from './visibility';
import { parseFields } from './parse-fields';
import { parseFilters } from './parse-filters';
import { parseSort } from './parse-sort';
import { asList, invalid, isObject, MAX_POPULATE_DEPTH, relationTarget, type QueryContext } from './query-context';

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
