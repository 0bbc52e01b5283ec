// The other side of media: a file's `related` attribute (v4 morphToMany over `files_related_morphs`) lists
// the entries and components that use the file, each with `__type`. Which types can appear is known from
// the model (every type with a media attribute), computed once per model.
import type { Attribute, ContentType, Model } from '../model/types';

export const FILE_UID = 'plugin::upload.file';

/** `plugin::upload.file`.`related`: the morph relation read through the media link table */
export function isMediaMorph(ct: ContentType, attr: Attribute): boolean {
  return ct.uid === FILE_UID && attr.kind === 'relation' && attr.relation === 'morphToMany' && attr.name === 'related';
}

const cache = new WeakMap<Model, ContentType[]>();

/**
 * The types a file's `related` may list for a caller: those with a media attribute that the caller may
 * `find`. As in v4, a component passes only for callers that may read everything (API tokens): roles have
 * no permission on components, so v4 leaves component items out for them.
 */
export function morphTypes(model: Model, canRead: (uid: string) => boolean): ContentType[] {
  let types = cache.get(model);
  if (!types) {
    types = [...model.contentTypes.values(), ...model.components.values()].filter((ct) => Object.values(ct.attributes).some((a) => a.kind === 'media'));
    cache.set(model, types);
  }
  return types.filter((ct) => canRead(ct.uid));
}
