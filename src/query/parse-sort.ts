// `sort` in every v4 form -> storage orderBy items; every path checked against the model.
import type { ContentType } from '../model/types';
import { ValidationError } from '../errors';
import { invalid, isObject, MAX_FILTER_DEPTH, readableAttribute, relationTarget, type QueryContext } from './query-context';

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
