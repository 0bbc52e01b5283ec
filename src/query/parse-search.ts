// `_q`, v4's search: entries whose id or any text attribute contains the text (and, when the text is a
// number, any number attribute), as LIKE '%text%' would match it. Private and password attributes are
// never searched: v4 searches them, which lets a client probe a private value one guess at a time
// (the CVE-2023-22894 class).
import type { ContentType, ScalarAttribute } from '../model/types';
import type { Where } from './types';
import { isVisible, type Visibility } from './visibility';
import { invalid } from './query-context';

const TEXT = new Set(['string', 'text', 'uid', 'email', 'enumeration', 'richtext']);
const NUMBER = new Set(['biginteger', 'integer', 'decimal', 'float']);

const columns = new WeakMap<ContentType, { text: string[]; numbers: string[] }>();

function searchable(ct: ContentType, vis: Visibility): { text: string[]; numbers: string[] } {
  let c = columns.get(ct);
  if (!c) {
    const scalars = Object.values(ct.attributes).filter(
      (a): a is ScalarAttribute => a.kind === 'scalar' && isVisible(a, vis) && a.raw.searchable !== false,
    );
    c = { text: scalars.filter((a) => TEXT.has(a.type)).map((a) => a.name), numbers: scalars.filter((a) => NUMBER.has(a.type)).map((a) => a.name) };
    columns.set(ct, c);
  }
  return c;
}

export function parseSearch(vis: Visibility, ct: ContentType, q: unknown): Where | undefined {
  if (q === undefined || q === null) return undefined;
  if (typeof q !== 'string') invalid('_q');
  const { text, numbers } = searchable(ct, vis);
  // an id's text is digits and a sign: a text with anything else is in no id, and without the id a substring
  // index can serve the whole search (storage/schema/tessera-search.ts) instead of a scan
  const names = [...(/[^0-9-]/.test(q) ? [] : ['id']), ...text, ...(Number.isNaN(Number(q)) ? [] : numbers)];
  if (!names.length) return { id: { $in: [] } }; // as the id alone did: no entry
  // $containsi: the same ASCII folding as LIKE on SQLite; on PostgreSQL the Unicode folding of v4's ILIKE there
  return { $or: names.map((name) => ({ [name]: { $containsi: q } })) };
}
