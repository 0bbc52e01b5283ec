// v4's `sanitize.contentAPI.output(user, schema, { auth })` for the users-permissions responses: private
// attributes and passwords never leave (at any depth), and relations whose target the caller may not
// `find` are left out. Everything these routes answer goes through here.
import type { Auth } from '../../auth/authenticate';
import { canFind } from '../../auth/permissions';
import type { ContentType, Model } from '../../model/types';

type Data = Record<string, unknown>;

export function sanitizeOutput(model: Model, ct: ContentType, data: unknown, auth: Auth | undefined, globalPrivate: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(data)) return data.map((d) => sanitizeOutput(model, ct, d, auth, globalPrivate));
  if (typeof data !== 'object' || data === null) return data;
  const out: Data = {};
  for (const [key, value] of Object.entries(data as Data)) {
    const attr = ct.attributes[key];
    if (!attr) {
      out[key] = value;
      continue;
    }
    if (attr.private || globalPrivate.has(key) || (attr.kind === 'scalar' && attr.type === 'password')) continue;
    if (attr.kind === 'relation') {
      if (attr.relation.startsWith('morph')) continue; // no morph relation on these models; never guess
      if (auth && !canFind(auth, attr.target)) continue;
      const target = model.get(attr.target);
      out[key] = target ? sanitizeOutput(model, target, value, auth, globalPrivate) : value;
    } else if (attr.kind === 'media') {
      const file = model.get('plugin::upload.file');
      out[key] = file ? sanitizeOutput(model, file, value, auth, globalPrivate) : value;
    } else if (attr.kind === 'component') {
      out[key] = sanitizeOutput(model, model.require(attr.component), value, auth, globalPrivate);
    } else if (attr.kind === 'dynamiczone') {
      out[key] = Array.isArray(value)
        ? value.map((item) => {
          const comp = model.get(String((item as Data)?.__component));
          return comp ? sanitizeOutput(model, comp, item, auth, globalPrivate) : item;
        })
        : value;
    } else {
      out[key] = value;
    }
  }
  return out;
}
