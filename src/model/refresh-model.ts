// The model is built before the project's register() runs (the instance's parts are made with it), but
// register() may still change it as v4 allows: custom fields registered there, plugin content types changed by
// extensions. These two steps keep the one Model object every part holds, completed in place.
import type { ModelSource } from './build-model';
import type { ContentType, Model, RawAttribute } from './types';

/** Sources whose custom-field attributes stand as JSON until their custom fields are registered. */
export function provisionalCustomFields(sources: ModelSource[]): ModelSource[] {
  return sources.map((src) => {
    const attrs = src.schema?.attributes;
    if (!attrs || !Object.values(attrs).some((a) => a?.type === 'customField')) return src;
    const attributes: Record<string, RawAttribute> = {};
    for (const [name, a] of Object.entries(attrs)) attributes[name] = a?.type === 'customField' ? { ...a, type: 'json' } : a;
    return { ...src, schema: { ...src.schema, attributes } };
  });
}

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
