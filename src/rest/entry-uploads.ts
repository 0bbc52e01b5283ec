// Entry writes sent as multipart/form-data, as v4 takes them: the entry in a JSON `data` field and files
// under `files.<path>`, where the path names a media attribute of the entry or of a component given in
// `data` (`files.cover`, `files.seo.shareImage`, `files.links.0.image`). The files are stored first, then
// their ids join `data` as relation values, so the entry, its components and its media links are written
// in the entry's one transaction; if that fails, the stored files are removed again.
import { BadRequestError, ValidationError } from '../errors';
import type { ContentType, MediaAttribute, Model } from '../model/types';
import type { RequestContext } from './context';

/** One file part of the request, already on disk (the upload plugin's temporary folder). */
export interface EntryFilePart {
  /** the form field: `files.<path>` */
  field: string;
  fileName: string;
  path: string;
  bytes: number;
  head: Buffer;
  clientType: string;
}

export interface EntryUploadTarget {
  /** `cover`, `seo.shareImage`, `links.0.image` */
  path: string;
  /** the model that has the media attribute (the entry's type or a component) */
  owner: ContentType;
  attr: MediaAttribute;
  files: EntryFilePart[];
}

/** What the upload plugin provides for entry writes (absent when it is not installed). */
export interface EntryUploads {
  /** the fields and file parts of a multipart request, streamed to disk; `cleanup` removes the temporary files */
  read(ctx: RequestContext): Promise<{ fields: Record<string, string | string[]>; files: EntryFilePart[]; cleanup(): Promise<void> }>;
  /**
   * Checks the caller may upload and each file's type against its attribute, stores the files (not yet
   * linked to anything) and returns their ids per target path; `discard` removes them again.
   */
  store(ctx: RequestContext, targets: EntryUploadTarget[]): Promise<{ ids: Map<string, number[]>; discard(): Promise<void> }>;
}

const DATA_MESSAGE = "When using multipart/form-data you need to provide your data in a JSON 'data' field.";
const PREFIX_MESSAGE = `When using multipart/form-data you need to provide your files by prefixing them with the 'files'.
For example, when a media file is named "avatar", make sure the form key name is "files.avatar"`;

export function isMultipartRequest(ctx: RequestContext): boolean {
  const type = ctx.request.headers['content-type'];
  return typeof type === 'string' && /^multipart\/form-data/i.test(type);
}

/** v4's parseMultipartData: the `data` field as JSON (v4 answers 500 where this answers the 400 it meant) */
export function parseDataField(fields: Record<string, string | string[]>): unknown {
  const raw = fields.data;
  if (raw === undefined || raw === '') throw new BadRequestError(DATA_MESSAGE);
  try {
    return JSON.parse(Array.isArray(raw) ? raw[raw.length - 1] : raw);
  } catch {
    throw new BadRequestError("Invalid 'data' field. 'data' should be a valid JSON.");
  }
}

/** `files.seo.shareImage` / `files[seo][shareImage]` -> ['seo', 'shareImage'] (lodash toPath, as v4) */
export function filePath(field: string): string[] {
  const parts = field.replace(/\[(\w*)\]/g, '.$1').split('.').filter((p) => p !== '');
  if (parts.length <= 1 || parts[0] !== 'files') throw new BadRequestError(PREFIX_MESSAGE);
  return parts.slice(1);
}

function unknownTarget(path: string[], why: string): never {
  const at = `files.${path.join('.')}`;
  throw new ValidationError(`${at} ${why}`, { errors: [{ path: ['files', ...path], message: `${at} ${why}`, name: 'ValidationError' }] });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Follows a file path through the entry's attributes and the components given in `data`, to the media
 * attribute it names. v4 drops files whose path names nothing; they are a 400 here.
 */
export function resolveTarget(model: Model, ct: ContentType, data: Record<string, unknown>, path: string[]): { owner: ContentType; attr: MediaAttribute; holder: Record<string, unknown> } {
  let owner = ct;
  let holder = data;
  for (let i = 0; i < path.length; i++) {
    const attr = owner.attributes[path[i]];
    const last = i === path.length - 1;
    if (last) {
      if (!attr || attr.kind !== 'media' || attr.private) unknownTarget(path, `does not name a media attribute of ${owner.uid}`);
      return { owner, attr, holder };
    }
    if (!attr || attr.kind !== 'component') unknownTarget(path, `does not name a media attribute of ${ct.uid}`);
    let value = holder[path[i]];
    if (attr.repeatable) {
      const index = path[++i];
      value = Array.isArray(value) && /^\d+$/.test(index ?? '') ? value[Number(index)] : undefined;
      if (i === path.length - 1) unknownTarget(path, `does not name a media attribute of ${ct.uid}`);
    }
    if (!isObject(value)) unknownTarget(path, `needs ${path.slice(0, i + 1).join('.')} in data`);
    owner = model.require(attr.component);
    holder = value;
  }
  return unknownTarget(path, `does not name a media attribute of ${ct.uid}`);
}

/** the ids already named by a relation value (`5`, `[1, 2]`, `{ id }`), for adding uploads to them */
function idsOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * The stored files' ids as the media attribute's value: a single media takes the last file; a multiple one
 * gets them after the ids `data` gives, or, on an update that does not name the attribute, connected after
 * the files it has (v4 adds uploads to what is there).
 */
export function mergeIds(attr: MediaAttribute, current: unknown, ids: number[], isCreate: boolean): unknown {
  if (!attr.multiple) return ids[ids.length - 1];
  if (isObject(current) && !('id' in current)) {
    if (Array.isArray(current.set)) return { ...current, set: [...current.set, ...ids] };
    return { ...current, connect: [...idsOf(current.connect), ...ids] };
  }
  if (current === undefined && !isCreate) return { connect: ids };
  return [...idsOf(current), ...ids];
}

/**
 * Runs an entry write with the data of a multipart request: the `data` field (made an entry's data by
 * `toData`, which may refuse it), with the files of `files.<path>` stored first and their ids merged in;
 * the stored files go again when the write fails or finds no entry (answers null).
 */
export async function withMultipartData<T>(
  uploads: EntryUploads,
  model: Model,
  ct: ContentType,
  ctx: RequestContext,
  opts: { isCreate: boolean; toData(parsed: unknown): Record<string, unknown> },
  write: (data: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const { fields, files, cleanup } = await uploads.read(ctx);
  try {
    const data = opts.toData(parseDataField(fields));
    const targets = uploadTargets(model, ct, data, files);
    if (!targets.length) return await write(data);
    const stored = await uploads.store(ctx, targets);
    try {
      for (const t of targets) t.holder[t.attr.name] = mergeIds(t.attr, t.holder[t.attr.name], stored.ids.get(t.path) ?? [], opts.isCreate || t.holder !== data);
      const result = await write(data);
      if (result === null || result === undefined) await stored.discard(); // no such entry: a 404 keeps nothing
      return result;
    } catch (err) {
      await stored.discard();
      throw err;
    }
  } finally {
    await cleanup();
  }
}

/** Groups the file parts by target; every part's path must name a media attribute (checked before anything is stored). */
export function uploadTargets(model: Model, ct: ContentType, data: Record<string, unknown>, parts: EntryFilePart[]): Array<EntryUploadTarget & { holder: Record<string, unknown> }> {
  const byPath = new Map<string, EntryUploadTarget & { holder: Record<string, unknown> }>();
  for (const part of parts) {
    const path = filePath(part.field);
    const key = path.join('.');
    const existing = byPath.get(key);
    if (existing) { existing.files.push(part); continue; }
    const { owner, attr, holder } = resolveTarget(model, ct, data, path);
    byPath.set(key, { path: key, owner, attr, holder, files: [part] });
  }
  return [...byPath.values()];
}

/** a file of `ctx.request.files`, as koa-body 4 (formidable 1) describes it to v4 project code */
export interface RequestFile {
  path: string;
  name: string;
  type: string;
  size: number;
}

/**
 * v4 parses every multipart request before routing (koa-body): project controllers of custom routes read
 * `ctx.request.body` (the fields) and `ctx.request.files` (by field name; an array for a repeated field). Here
 * the request is streamed to temporary files just before such a handler runs, and they are removed once it
 * has finished (hand them to the upload service, which copies them, to keep them).
 */
export function withRequestFiles(uploads: () => EntryUploads | undefined, handler: (ctx: RequestContext) => Promise<unknown>): (ctx: RequestContext) => Promise<unknown> {
  return async (ctx) => {
    const u = uploads();
    if (!u || !isMultipartRequest(ctx)) return handler(ctx);
    const received = await u.read(ctx);
    try {
      const files: Record<string, RequestFile | RequestFile[]> = {};
      for (const f of received.files) {
        const file: RequestFile = { path: f.path, name: f.fileName, type: f.clientType, size: f.bytes };
        const seen = files[f.field];
        files[f.field] = seen === undefined ? file : Array.isArray(seen) ? [...seen, file] : [seen, file];
      }
      ctx.request.body = received.fields;
      ctx.request.files = files;
      return await handler(ctx);
    } finally {
      await received.cleanup();
    }
  };
}
