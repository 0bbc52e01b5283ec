// The floor's knowledge of the fixture app, written out by hand: which columns each v4 response shows,
// and how each is converted, both as a JS row converter and as the SQLite expression that writes it as JSON.
// (What a hand-written server for this one app would hard-code; nothing is read from the model at run time.)

/** s: as stored; b: boolean 0/1; t: datetime stored as epoch ms; j: JSON text; big: biginteger read as text */
export type FieldType = 's' | 'b' | 't' | 'j' | 'big';
export type FieldSpec = readonly (readonly [key: string, column: string, type: FieldType])[];

export const ARTICLE: FieldSpec = [
  ['title', 'title', 's'], ['slug', 'slug', 's'], ['body', 'body', 's'], ['views', 'views', 's'], ['rating', 'rating', 's'],
  ['price', 'price', 's'], ['featured', 'featured', 'b'], ['kind', 'kind', 's'], ['publishDate', 'publish_date', 's'],
  ['scheduledAt', 'scheduled_at', 't'], ['meta', 'meta', 'j'], ['big', 'big', 'big'], ['createdAt', 'created_at', 't'],
  ['updatedAt', 'updated_at', 't'], ['publishedAt', 'published_at', 't'],
];
export const AUTHOR: FieldSpec = [['name', 'name', 's'], ['email', 'email', 's'], ['bio', 'bio', 's'], ['createdAt', 'created_at', 't'], ['updatedAt', 'updated_at', 't']];
export const CATEGORY: FieldSpec = [['name', 'name', 's'], ['slug', 'slug', 's'], ['priority', 'priority', 's'], ['createdAt', 'created_at', 't'], ['updatedAt', 'updated_at', 't']];
export const FILE: FieldSpec = [
  ['name', 'name', 's'], ['alternativeText', 'alternative_text', 's'], ['caption', 'caption', 's'], ['width', 'width', 's'],
  ['height', 'height', 's'], ['formats', 'formats', 'j'], ['hash', 'hash', 's'], ['ext', 'ext', 's'], ['mime', 'mime', 's'],
  ['size', 'size', 's'], ['url', 'url', 's'], ['previewUrl', 'preview_url', 's'], ['provider', 'provider', 's'],
  ['provider_metadata', 'provider_metadata', 'j'], ['createdAt', 'created_at', 't'], ['updatedAt', 'updated_at', 't'],
];
export const SEO: FieldSpec = [['metaTitle', 'meta_title', 's'], ['metaDescription', 'meta_description', 's']];
export const LINK: FieldSpec = [['label', 'label', 's'], ['url', 'url', 's']];
export const TEXT: FieldSpec = [['body', 'body', 's']];
export const QUOTE: FieldSpec = [['text', 'text', 's'], ['by', 'by', 's']];
export const GALLERY: FieldSpec = [['title', 'title', 's']];

// ---- JS side ----

/** `a.id AS id, a.title AS title, ...` (bigintegers as text, as Tessera and v4 return them) */
export function selectColumns(spec: FieldSpec, alias: string): string {
  return [`${alias}.id AS id`, ...spec.map(([key, col, type]) => (type === 'big' ? `CAST(${alias}.\`${col}\` AS TEXT)` : `${alias}.\`${col}\``) + ` AS \`${key}\``)].join(', ');
}

export type Row = Record<string, unknown>;

const iso = (v: unknown) => (v === null ? null : new Date(v as number).toISOString());
const bool = (v: unknown) => (v === null ? null : v === 1);
const json = (v: unknown) => (v === null ? null : JSON.parse(v as string));

/**
 * A converter from a row (selected with selectColumns) to the object v4 shows: a function compiled once
 * with one property per field, the way one would write it by hand.
 */
export function rowConverter(spec: FieldSpec): (row: Row) => Record<string, unknown> {
  const body = spec.map(([key, , type]) => {
    const v = `r[${JSON.stringify(key)}]`;
    const expr = type === 'b' ? `bool(${v})` : type === 't' ? `iso(${v})` : type === 'j' ? `json(${v})` : v;
    return `${JSON.stringify(key)}: ${expr}`;
  });
  return new Function('iso', 'bool', 'json', `return (r) => ({ ${body.join(', ')} });`)(iso, bool, json) as (row: Row) => Record<string, unknown>;
}

// ---- SQL side (SQLite JSON functions) ----

function sqlValue(alias: string, col: string, type: FieldType): string {
  const c = `${alias}.\`${col}\``;
  switch (type) {
    case 'b': return `CASE WHEN ${c} IS NULL THEN NULL WHEN ${c} THEN json('true') ELSE json('false') END`;
    case 't': return `strftime('%Y-%m-%dT%H:%M:%fZ', ${c} / 1000.0, 'unixepoch')`;
    case 'j': return `json(${c})`;
    case 'big': return `CAST(${c} AS TEXT)`;
    default: return c;
  }
}

/** `'key', <expr>, ...` for json_object(...) */
export function jsonPairs(spec: FieldSpec, alias: string): string {
  return spec.map(([key, col, type]) => `'${key}', ${sqlValue(alias, col, type)}`).join(', ');
}

/** `{ id, attributes: {...} }` of an entry */
export function jsonEntry(spec: FieldSpec, alias: string, extra = ''): string {
  return `json_object('id', ${alias}.id, 'attributes', json_object(${jsonPairs(spec, alias)}${extra ? `, ${extra}` : ''}))`;
}

/** a component: `{ id, ...fields }` (flat), optionally with `__component` after the id */
export function jsonComponent(spec: FieldSpec, alias: string, uid?: string): string {
  return `json_object('id', ${alias}.id${uid ? `, '__component', '${uid}'` : ''}, ${jsonPairs(spec, alias)})`;
}

// ---- SQL side (PostgreSQL JSON functions, for the pg floor) ----

/**
 * A column as v4 shows it on PostgreSQL: timestamps (no time zone, the process's wall time: UTC here) as ISO
 * text with milliseconds and `Z`, bigintegers as exact text; booleans, numbers, dates and jsonb as they are.
 */
function pgValue(alias: string, col: string, type: FieldType): string {
  const c = `${alias}."${col}"`;
  switch (type) {
    case 't': return `to_char(${c}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'big': return `${c}::text`;
    default: return c;
  }
}

/** `'key', <expr>, ...` for json_build_object(...) */
export function pgPairs(spec: FieldSpec, alias: string): string {
  return spec.map(([key, col, type]) => `'${key}', ${pgValue(alias, col, type)}`).join(', ');
}

/** `{ id, attributes: {...} }` of an entry */
export function pgEntry(spec: FieldSpec, alias: string, extra = ''): string {
  return `json_build_object('id', ${alias}.id, 'attributes', json_build_object(${pgPairs(spec, alias)}${extra ? `, ${extra}` : ''}))`;
}

/** a component: `{ id, ...fields }` (flat), optionally with `__component` after the id */
export function pgComponent(spec: FieldSpec, alias: string, uid?: string): string {
  return `json_build_object('id', ${alias}.id${uid ? `, '__component', '${uid}'` : ''}, ${pgPairs(spec, alias)})`;
}
