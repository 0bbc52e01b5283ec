// `fields` -> the scalar attributes to select (visible ones only).
import type { ContentType } from '../model/types';
import { isVisible, visibleScalars } from './visibility';
import { asList, invalid, type QueryContext } from './query-context';

export function parseFields(ctx: QueryContext, ct: ContentType, fields: unknown): string[] {
  const defaults = visibleScalars(ct, ctx.visibility);
  if (fields === undefined || fields === null || fields === '') return defaults;
  // v4 does not split a comma string: `fields=title,slug` is the unknown field "title,slug" (a 400)
  const names = asList(fields).map((f) => (typeof f === 'string' ? f : invalid('fields'))).filter(Boolean);
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
