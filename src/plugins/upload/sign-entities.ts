// Signed media URLs inside entry results, for a provider whose `isPrivate()` is true: v4's entity-service
// decorator (plugin-upload `services/extensions`: `signEntityMedia` over `traverseEntity`, `file.signFileUrls`).
// Every `media` attribute at any depth (components, dynamic zones, populated relations, a file's `related`)
// gets a copy of each file of the configured provider with `url` and each format's `url` from
// `getSignedUrl`, `isUrlSigned: true` on the file and on each format; files of another provider get
// `isUrlSigned: false`. The result is copied along the paths that change; nothing read is mutated.
// `isPrivate()` is asked once at start-up (v4's bootstrap): with a public provider `active` stays false
// and callers skip this module entirely.
import type { ContentType, Model } from '../../model/types';
import type { MediaSigning } from '../../content/core-service';
import type { UploadProvider } from './provider';
import { isCount } from '../../content/entry-meta';

const FILE_UID = 'plugin::upload.file';

/** `getSignedUrl` calls in flight at once for one result (a page of 100 entries with galleries waits its turn) */
export const SIGN_CONCURRENCY = 8;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the models from which a media value can be reached (media, morph relations, or a link to such a model) */
function mediaReach(model: Model): Set<string> {
  const all = [...model.contentTypes.values(), ...model.components.values()];
  const reach = new Set<string>();
  const links = (ct: ContentType): string[] | null => {
    const out: string[] = [];
    for (const a of Object.values(ct.attributes)) {
      if (a.kind === 'media' || (a.kind === 'relation' && a.relation.startsWith('morph'))) return null;
      if (a.kind === 'relation') out.push(a.target);
      else if (a.kind === 'component') out.push(a.component);
      else if (a.kind === 'dynamiczone') out.push(...a.components);
    }
    return out;
  };
  const targets = new Map<string, string[]>();
  for (const ct of all) {
    const l = links(ct);
    if (l === null) reach.add(ct.uid);
    else targets.set(ct.uid, l);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [uid, l] of targets) {
      if (!reach.has(uid) && l.some((t) => reach.has(t))) {
        reach.add(uid);
        changed = true;
      }
    }
  }
  return reach;
}

type MapMedia = (ct: ContentType, v: unknown, onFile: (file: Obj) => Obj) => unknown;

/** v4's traverseEntity, limited to what can hold media: `onFile` maps each file; containers are copied only where something changed */
function mediaMapper(model: Model, reach: Set<string>): MapMedia {
  // set by each call: the traversal is synchronous, so one call's mapping never sees another's
  let onFile: (file: Obj) => Obj = (f) => f;
  const fileType = model.get(FILE_UID);
  const list = (value: unknown, fn: (v: unknown) => unknown): unknown => {
    if (!Array.isArray(value)) return fn(value);
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const n = fn(value[i]);
      if (n !== value[i]) (out ??= value.slice())[i] = n;
    }
    return out ?? value;
  };
  const entityOf = (uid: string | undefined) => (v: unknown): unknown => {
    const ct = uid === undefined ? undefined : model.get(uid);
    return ct && reach.has(ct.uid) ? entity(ct, v) : v;
  };
  const file = (v: unknown): unknown => {
    if (!isObj(v) || isCount(v)) return v;
    const f = onFile(v);
    return fileType ? entity(fileType, f) : f; // v4 goes on into the file (its `related` entries)
  };
  function entity(ct: ContentType, v: unknown): unknown {
    if (!isObj(v)) return v;
    let out: Obj | undefined;
    for (const key in v) {
      const attr = ct.attributes[key];
      const value = v[key];
      if (!attr || attr.kind === 'scalar' || value === null || value === undefined) continue;
      let next: unknown = value;
      if (attr.kind === 'media') next = list(value, file);
      else if (attr.kind === 'relation') {
        next = attr.relation.startsWith('morph')
          ? list(value, (item) => (isObj(item) && typeof item.__type === 'string' ? entityOf(item.__type)(item) : item))
          : list(value, entityOf(attr.target));
      } else if (attr.kind === 'component') next = list(value, entityOf(attr.component));
      else if (attr.kind === 'dynamiczone' && Array.isArray(value)) {
        next = list(value, (item) => (isObj(item) && typeof item.__component === 'string' ? entityOf(item.__component)(item) : item));
      }
      if (next !== value) (out ??= { ...v })[key] = next; // the spread keeps entry meta (symbol keys)
    }
    return out ?? v;
  }
  return (ct, v, fn) => {
    onFile = fn;
    return entity(ct, v);
  };
}

/** runs the tasks, at most `limit` at a time; the first failure stops the rest from starting */
async function bounded(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < tasks.length) {
      const task = tasks[next++];
      try {
        await task();
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

export interface MediaSigner extends MediaSigning {
  /** asks the provider once (plugin bootstrap) */
  start(): Promise<void>;
}

export function createMediaSigner(opts: {
  model: Model;
  provider: UploadProvider;
  providerName: string;
  /** v4's `signAdminURLsOnly`: never sign entry results */
  adminOnly?: boolean;
  concurrency?: number;
}): MediaSigner {
  const { model, provider, providerName } = opts;
  const limit = opts.concurrency ?? SIGN_CONCURRENCY;
  let reach: Set<string> | undefined;
  /** the traversal, built at start-up for a private provider */
  let mapMedia: MapMedia | undefined;

  /** v4's signFileUrls for every file found: copies, with the url assignments queued */
  async function signFiles(files: Set<Obj>): Promise<Map<Obj, Obj>> {
    const out = new Map<Obj, Obj>();
    const tasks: Array<() => Promise<void>> = [];
    const sign = (target: Obj, source: Obj) => async () => {
      target.url = (await provider.getSignedUrl(source)).url;
      target.isUrlSigned = true;
    };
    for (const f of files) {
      if (f.provider !== providerName) {
        out.set(f, { ...f, isUrlSigned: false });
        continue;
      }
      const copy: Obj = { ...f };
      if (!('isUrlSigned' in copy)) copy.isUrlSigned = false; // v4 marks the file before copying it: the key comes last
      tasks.push(sign(copy, f));
      if (f.formats && isObj(f.formats)) {
        const formats: Obj = { ...f.formats };
        for (const [k, fmt] of Object.entries(f.formats)) {
          if (!isObj(fmt)) continue;
          const c = { ...fmt };
          formats[k] = c;
          tasks.push(sign(c, fmt));
        }
        copy.formats = formats;
      }
      out.set(f, copy);
    }
    await bounded(tasks, limit);
    return out;
  }

  const signer: MediaSigner = {
    active: false,
    async start() {
      signer.active = !opts.adminOnly && (await provider.isPrivate());
      if (signer.active) {
        reach = mediaReach(model);
        mapMedia = mediaMapper(model, reach);
      }
    },
    async sign<T>(uid: string, result: T): Promise<T> {
      const ct = model.get(uid);
      if (!signer.active || !reach || !mapMedia || !ct || !reach.has(uid) || result === null || result === undefined) return result;
      const map = mapMedia;
      const each = (onFile: (f: Obj) => Obj) => (Array.isArray(result) ? result.map((e) => map(ct, e, onFile)) : map(ct, result, onFile));
      const found = new Set<Obj>();
      each((f) => (found.add(f), f));
      if (!found.size) return result;
      const signed = await signFiles(found);
      return each((f) => signed.get(f) ?? f) as T;
    },
  };
  return signer;
}
