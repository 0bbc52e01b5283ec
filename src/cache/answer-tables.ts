// The tables an answer about one type can have read: its own table and link tables, and those of every type
// its relations, media, components and dynamic zones lead to, transitively (what filters, sort and populate
// can reach, at any depth). A superset of what one request reads, so a write to any other table cannot
// change the answer; computed once per type.
import type { ContentType, Model } from '../model/types';
import { FILE_UID, morphTypes } from '../storage/media-morph';

/** the media link table (v4: `files_related_morphs`) */
const MEDIA_LINKS = 'files_related_morphs';
/** v4 i18n's locales (a `locale` parameter is checked against them) */
const LOCALES = 'i18n_locale';

const memo = new WeakMap<Model, Map<string, readonly string[]>>();

/** the tables reachable from `uids`, sorted (one array per distinct set, shared by every entry using it) */
export function answerTables(model: Model, uids: readonly string[]): readonly string[] {
  let byKey = memo.get(model);
  if (!byKey) memo.set(model, (byKey = new Map()));
  const key = uids.join('\u0000');
  const hit = byKey.get(key);
  if (hit) return hit;
  const tables = new Set<string>([LOCALES]);
  const seen = new Set<string>();
  const queue = [...uids];
  for (let uid = queue.pop(); uid !== undefined; uid = queue.pop()) {
    if (seen.has(uid)) continue;
    seen.add(uid);
    const ct = model.get(uid);
    if (ct) for (const next of step(model, ct, tables)) queue.push(next);
  }
  const out = Object.freeze([...tables].sort());
  byKey.set(key, out);
  return out;
}

/** adds `ct`'s own tables; answers the types it leads to */
function step(model: Model, ct: ContentType, tables: Set<string>): string[] {
  tables.add(ct.collectionName);
  const next: string[] = [];
  for (const [name, attr] of Object.entries(ct.attributes)) {
    switch (attr.kind) {
      case 'component':
        tables.add(ct.componentsTable);
        next.push(attr.component);
        break;
      case 'dynamiczone':
        tables.add(ct.componentsTable);
        next.push(...attr.components);
        break;
      case 'media':
        tables.add(MEDIA_LINKS);
        next.push(FILE_UID);
        break;
      case 'relation':
        if (attr.joinTable) tables.add(attr.joinTable.name);
        if (attr.relation.startsWith('morph')) {
          // a file's `related`: every type with media; another morph relation: its own link table, any type
          tables.add(attr.relation === 'morphToMany' ? `${ct.collectionName}_${name}_morphs` : ct.collectionName);
          const targets = ct.uid === FILE_UID ? morphTypes(model, () => true) : [...model.contentTypes.values(), ...model.components.values()];
          next.push(...targets.map((t) => t.uid));
        } else {
          next.push(attr.target);
        }
        break;
      default:
        break;
    }
  }
  return next;
}
