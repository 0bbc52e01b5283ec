// v4's `sanitize.contentAPI.output(data, schema, { auth })` on flat entities: private attributes (the schema's
// and config/api.js `responses.privateAttributes`) and passwords never leave, at any depth (relations, media,
// components, dynamic zones, a file's `related`), and with a caller, relations whose target it may not `find`
// are left out (a morph relation keeps the items of types it may find). As in v4, `createdBy`/`updatedBy` skip
// that check when the type sets `options.populateCreatorFields` (they are still sanitized inside). Entry meta
// (symbol keys) and populated counts pass unchanged. A role's `users` never leave (users-permissions' own output
// sanitizer in v4). The core controllers, the users-permissions responses and webhook bodies go through here.
import type { Attribute, ContentType, Model } from '../model/types';
import { isShownCreator } from '../query/visibility';
import { isCount } from './entry-meta';

type Data = Record<string, unknown>;

export interface OutputRules {
  /** may the caller `find` this type; absent: no caller (v4 without auth), relations are kept */
  canRead?: (uid: string) => boolean;
  globalPrivate: ReadonlySet<string>;
}

export function sanitizeOutput(model: Model, ct: ContentType, data: unknown, rules: OutputRules): unknown {
  if (Array.isArray(data)) return data.map((d) => sanitizeOutput(model, ct, d, rules));
  if (typeof data !== 'object' || data === null || isCount(data)) return data;
  const out: Data = {};
  for (const [key, value] of Object.entries(data as Data)) {
    const attr = ct.attributes[key];
    if (!attr) out[key] = value;
    else if (!isHidden(ct, attr, rules)) out[key] = sanitizeValue(model, attr, value, rules);
  }
  for (const s of Object.getOwnPropertySymbols(data)) (out as Record<symbol, unknown>)[s] = (data as Record<symbol, unknown>)[s];
  return out;
}

/**
 * users-permissions registers a content-API output sanitizer in v4 (removeUserRelationFromRoleEntities): a
 * role's relations to users never leave, whatever populated them (strapi-plugin-populate-deep's role.users)
 */
const isRoleUsers = (ct: ContentType, attr: Attribute) =>
  ct.uid === 'plugin::users-permissions.role' && attr.kind === 'relation' && attr.target === 'plugin::users-permissions.user';

function isHidden(ct: ContentType, attr: Attribute, rules: OutputRules): boolean {
  if (attr.private || rules.globalPrivate.has(attr.name) || (attr.kind === 'scalar' && attr.type === 'password')) return true;
  if (isRoleUsers(ct, attr)) return true;
  if (attr.kind !== 'relation' || attr.relation.startsWith('morph') || !rules.canRead) return false;
  if (isShownCreator(ct, attr)) return false;
  return !rules.canRead(attr.target);
}

function sanitizeValue(model: Model, attr: Attribute, value: unknown, rules: OutputRules): unknown {
  switch (attr.kind) {
    case 'relation': {
      if (!attr.relation.startsWith('morph')) {
        const target = model.get(attr.target);
        return target ? sanitizeOutput(model, target, value, rules) : value;
      }
      // a file's `related`: items `{ __type, id, ... }`; one of an unknown type is never guessed at
      if (!Array.isArray(value)) return value;
      return value.flatMap((item) => {
        const type = model.get(String((item as Data | null)?.__type));
        return type && (!rules.canRead || rules.canRead(type.uid)) ? [sanitizeOutput(model, type, item, rules)] : [];
      });
    }
    case 'media': {
      const file = model.get('plugin::upload.file');
      return file ? sanitizeOutput(model, file, value, rules) : value;
    }
    case 'component':
      return sanitizeOutput(model, model.require(attr.component), value, rules);
    case 'dynamiczone':
      return Array.isArray(value)
        ? value.map((item) => {
          const comp = model.get(String((item as Data | null)?.__component));
          return comp ? sanitizeOutput(model, comp, item, rules) : item;
        })
        : value;
    default:
      return value;
  }
}
