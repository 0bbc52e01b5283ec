// v4's "relations" check of a write (the entity validator's `relations-test`): every id a relation or media
// value sets or connects must exist, top level and inside components and dynamic-zone items alike. Ids are
// gathered per target type over the whole payload and counted with one query per type. The answer is the
// one v4 gives: a single issue with path [] appended to the other validation errors.
import type { ContentType, Model } from '../model/types';
import type { Executor } from '../storage/dialect';
import { countEntities } from '../storage/read-entities';
import { parseRelationValue, referencedIds, RelationInputError, type RelationId } from '../storage/relation-ops';

type Data = Record<string, unknown>;

const INVALID = 'Invalid relations';
const NO_COMPONENT = 'Cannot build relations store from dynamiczone, component identifier is undefined';

class StoreError extends Error {}

function isObject(v: unknown): v is Data {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** target uid -> ids referenced, in first-seen order of the targets */
function gather(model: Model, ct: ContentType, data: Data, store: Map<string, RelationId[]>): void {
  for (const attr of Object.values(ct.attributes)) {
    const value = data[attr.name];
    if (value === undefined || value === null) continue;
    switch (attr.kind) {
      case 'relation':
      case 'media': {
        if (attr.kind === 'relation' && attr.relation.startsWith('morph')) break;
        let ids: RelationId[];
        try {
          ids = referencedIds(parseRelationValue(value));
        } catch (err) {
          throw new StoreError(err instanceof RelationInputError ? err.message : INVALID);
        }
        const target = attr.kind === 'media' ? 'plugin::upload.file' : attr.target;
        store.set(target, [...(store.get(target) ?? []), ...ids]);
        break;
      }
      case 'component':
        for (const item of Array.isArray(value) ? value : [value]) {
          if (isObject(item)) gather(model, model.require(attr.component), item, store);
        }
        break;
      case 'dynamiczone':
        for (const item of Array.isArray(value) ? value : [value]) {
          if (!isObject(item)) throw new StoreError(INVALID);
          if (!item.__component) throw new StoreError(NO_COMPONENT);
          const comp = model.components.get(String(item.__component));
          if (!comp) throw new StoreError(INVALID);
          gather(model, comp, item, store);
        }
        break;
    }
  }
}

/**
 * The relations issue of a payload, or null: a value of no relation shape, a dynamic-zone item without a
 * known component, or ids that do not exist ("N relation(s) of type <uid> associated with this entity do
 * not exist", for the first type with missing ids).
 */
export async function relationsIssue(tx: Executor, model: Model, ct: ContentType, data: Data): Promise<string | null> {
  const store = new Map<string, RelationId[]>();
  try {
    gather(model, ct, data, store);
  } catch (err) {
    if (err instanceof StoreError) return err.message;
    throw err;
  }
  for (const [uid, ids] of store) {
    const unique = [...new Map(ids.map((id) => [String(id), id])).values()];
    if (!unique.length) continue;
    const numeric = unique.filter((id): id is number => typeof id === 'number' && Number.isInteger(id));
    const found = numeric.length ? await countEntities(tx, model, model.require(uid), { id: { $in: numeric } }) : 0;
    if (found < unique.length) return `${unique.length - found} relation(s) of type ${uid} associated with this entity do not exist`;
  }
  return null;
}
