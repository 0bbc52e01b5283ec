// The model is built before the project's register() runs (the instance's parts are made with it), but
// register() may still change it as v4 allows: custom fields registered there, plugin content types changed by
// extensions. These two steps keep the one Model object every part holds, completed in place.
import type { ModelSource } from './build-model';
import type { ContentType, Model, RawAttribute } from './types';

/** attributes standing as JSON for a custom field not registered yet (the objects the model's schemas hold) */
const provisional = new WeakSet<object>();

/** Sources whose custom-field attributes stand as JSON until their custom fields are registered. */
export function provisionalCustomFields(sources: ModelSource[]): ModelSource[] {
  return sources.map((src) => {
    const attrs = src.schema?.attributes;
    if (!attrs || !Object.values(attrs).some((a) => a?.type === 'customField')) return src;
    const attributes: Record<string, RawAttribute> = {};
    for (const [name, a] of Object.entries(attrs)) {
      if (a?.type !== 'customField') attributes[name] = a;
      else provisional.add((attributes[name] = { ...a, type: 'json' }));
    }
    return { ...src, schema: { ...src.schema, attributes } };
  });
}

/**
 * The model's content types and components as sources again: their schemas as project code now has them, the
 * provisional custom-field attributes back to `customField` (`keep(uid)` false: left as JSON, for a project opened
 * without its register() run).
 */
export function sourcesOf(model: Model, keep: (customField: string) => boolean = () => true): ModelSource[] {
  const restore = (a: RawAttribute) => provisional.has(a) && keep(String(a.customField));
  return [...model.contentTypes.values(), ...model.components.values()].map((ct) => {
    const attrs = ct.schema.attributes;
    const schema = Object.values(attrs).some(restore)
      ? { ...ct.schema, attributes: Object.fromEntries(Object.entries(attrs).map(([k, a]) => [k, restore(a) ? { ...a, type: 'customField' } : a])) }
      : ct.schema;
    return { uid: ct.uid, kind: ct.kind, origin: ct.origin, modelName: ct.modelName, schema, file: ct.file };
  });
}

/** JSON of every schema of the model, to see whether project code changed one */
export const schemasText = (model: Model): string => JSON.stringify([...model.contentTypes.values(), ...model.components.values()].map((ct) => ct.schema));

/** Makes `target` what `next` is, keeping `target`'s content type objects (parts of the instance hold them). */
export function refreshModel(target: Model, next: Model): void {
  const added = [...next.contentTypes.keys(), ...next.components.keys()].filter((uid) => !target.get(uid));
  if (added.length) throw new Error(`content types added after start-up began (${added.join(', ')}): declare them in a plugin's contentTypes or a schema.json`);
  for (const map of [next.contentTypes, next.components]) {
    for (const [uid, ct] of map) {
      const old = target.get(uid) as ContentType & Record<string, unknown>;
      for (const key of Object.keys(old)) delete old[key];
      Object.assign(old, ct);
    }
  }
}
