// `fields` -> the scalar attributes to select, as v4 validates them: one name or a list of names, each
// trimmed; `*` for all; `id` always returned; a relation, media, component, dynamic zone, private,
// password or unknown name is a 400 (project code may name private and password attributes, as in v4).
// v4 does not split a comma string (`fields=title,slug` names the unknown field "title,slug"). A column name
// (`publish_date`) is accepted for its attribute, as in v4.
import type { Attribute, ContentType } from '../model/types';
import { isVisible, visibleScalars } from './visibility';
import { FirstMistake, invalid, type QueryContext } from './query-context';

enum Rule { NotScalar, Private, Password }

const byColumn = new WeakMap<ContentType, Map<string, Attribute>>();

/** v4 also finds an attribute by its column name */
export function attributeNamed(ct: ContentType, name: string): Attribute | undefined {
  const attr = ct.attributes[name];
  if (attr) return attr;
  let columns = byColumn.get(ct);
  if (!columns) {
    columns = new Map(Object.values(ct.attributes).flatMap((a) => (a.kind === 'scalar' && a.column !== a.name ? [[a.column, a] as const] : [])));
    byColumn.set(ct, columns);
  }
  return columns.get(name);
}

export function parseFields(ctx: QueryContext, ct: ContentType, fields: unknown): string[] {
  const defaults = visibleScalars(ct, ctx.visibility);
  if (fields === undefined || fields === null || fields === '' || fields === '*') return defaults;
  if (!(typeof fields === 'string' || (Array.isArray(fields) && fields.every((f) => typeof f === 'string')))) invalid('fields');
  const names = (typeof fields === 'string' ? [fields] : (fields as string[])).map((f) => f.trim());
  if (names.includes('*')) return defaults;
  const check = new FirstMistake();
  const out: string[] = [];
  for (const name of names) {
    if (name === 'id') continue;
    const attr = attributeNamed(ct, name);
    if (!attr || attr.kind !== 'scalar') {
      check.report(Rule.NotScalar, `Invalid parameter ${name}`);
      continue;
    }
    if (!isVisible(attr, ctx.visibility)) check.report(Rule.Private, `Invalid parameter ${name}`);
    if (attr.type === 'password' && !ctx.visibility.trusted) check.report(Rule.Password, `Invalid parameter ${name}`);
    if (!out.includes(attr.name)) out.push(attr.name);
  }
  check.finish();
  return out;
}
