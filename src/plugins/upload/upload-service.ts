// `strapi.plugin('upload').service('upload')`: v4's upload service. A file goes through: name checks ->
// type sniffed from its bytes -> allow/deny lists and the target's allowedTypes -> size limit -> image
// processing in a temporary folder -> size limit on what is stored (v4 checks the optimized original) ->
// provider (original and formats) -> ONE transaction for the rows and links. Any failure removes what the
// provider already stored (also a write that failed halfway), and the temporary folder always goes.
// With a private provider the service's answers carry signed urls (v4 leaves them unsigned: docs/compatibility.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Auth } from '../../auth/authenticate';
import { ApplicationError, NotFoundError, ValidationError } from '../../errors';
import type { Model } from '../../model/types';
import type { QueryFn } from '../../query/query-engine';
import type { Entity, FindParams, Populate } from '../../query/types';
import type { Database, Executor } from '../../storage/dialect';
import { authorizeEntryChange, checkAllowedType, fileUsages, resolveAttachTarget, writeAttachLink, type AttachDeps, type AttachTarget } from './attach';
import { typeMatches, type UploadConfig } from './config';
import type { FileInfo } from './file-info';
import { bytesToKbytes, fitHash, generateHash, hashBaseName, isValidFileName } from './file-name';
import { SNIFF_BYTES, sniffType, storedType, type SniffedType } from './file-type';
import { InvalidImageError, processImage, type ImageFile } from './image';
import type { Library } from './library';
import { exceedsSizeLimit, sizeLimitError } from './multipart';
import type { ProviderFile, UploadProvider } from './provider';

import { webhooksOf } from '../../webhooks/registry';
import { currentHookTransaction, transactionOrHook, whenTransactionEnds } from '../../storage/lifecycles';

export const FILE_UID = 'plugin::upload.file';

/** a file to upload: v4's (formidable) shape; `head` when the caller already read the first bytes */
export interface IncomingFile {
  path: string;
  name: string;
  type?: string;
  size?: number;
  head?: Buffer;
  /** a temporary file of the plugin's own, which the provider may move instead of copying */
  disposable?: boolean;
}

export interface UploadData {
  fileInfo?: FileInfo | FileInfo[];
  ref?: unknown;
  refId?: unknown;
  field?: unknown;
}

export interface UploadServiceDeps {
  db: Database;
  model: Model;
  query: QueryFn;
  config: UploadConfig;
  provider: UploadProvider;
  library: Library;
  attach: AttachDeps;
  /** the fields a response shows (visible scalars of the file model) */
  visibleFields: string[];
  log: Logger;
}

/** a processed file ready for the provider and the database */
interface PreparedFile {
  entity: Record<string, unknown>;
  original: ProviderFile;
  /** the original's content, when it is a temporary file the provider may move */
  disposablePath?: string;
  formats: Array<{ key: string; file: ProviderFile; path: string }>;
}

type FormatRecord = Record<string, unknown>;

async function readHead(file: string): Promise<Buffer> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fd.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fd.close();
  }
}

/** an id from a URL or query (anything else finds nothing, as in v4) */
function fileId(id: unknown): number | null {
  const n = typeof id === 'number' ? id : /^\d{1,15}$/.test(String(id)) ? Number(id) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** a replaced file keeps its extension (so its url) while that still describes the new content, by the upload rules */
function typeOf(sniffed: SniffedType, fileName: string, keptExt?: string): { mime: string; ext: string } {
  if (keptExt !== undefined) {
    const kept = storedType(sniffed, `file${keptExt}`);
    if (kept.ext === keptExt) return kept;
  }
  return storedType(sniffed, fileName);
}

const keyOf = (f: { hash?: unknown; ext?: unknown }) => `${f.hash}${f.ext ?? ''}`;

function providerFile(fields: Pick<ProviderFile, 'name' | 'hash' | 'ext' | 'mime' | 'size'> & Partial<ProviderFile>, source: string): ProviderFile {
  return { ...fields, getStream: () => fs.createReadStream(source) };
}

/** what a format record keeps: v4's fields plus whatever the provider added (url, provider_metadata) */
function formatRecord(f: ProviderFile): FormatRecord {
  const { getStream: _g, stream: _s, buffer: _b, ...rest } = f;
  void _g; void _s; void _b;
  return rest;
}

export function createUploadService(d: UploadServiceDeps) {
  const { db, config, provider, library } = d;
  const files = (tx?: Executor) => d.query(FILE_UID, tx);

  function checkSecurity(mime: string, name: string): void {
    const { allowedTypes, deniedTypes } = config.security;
    const denied = deniedTypes?.some((p) => typeMatches(p, mime)) || (allowedTypes && !allowedTypes.some((p) => typeMatches(p, mime)));
    if (denied) throw new ValidationError(`${name}: files of type ${mime} are not allowed`, { errors: [{ path: ['files'], message: `files of type ${mime} are not allowed`, name: 'ValidationError' }] });
  }

  /**
   * v4's formatFileInfo + enhanceAndValidateFile, with the type taken from the content; `targets`: the media
   * attributes whose allowedTypes apply; `keep`: a replaced file's hash and extension
   */
  async function prepare(file: IncomingFile, info: FileInfo, workDir: string, targets: AttachTarget[], keep?: { hash: string; ext: string }): Promise<PreparedFile> {
    if (!isValidFileName(file.name)) throw new ApplicationError('File name contains invalid characters');
    const usedName = (info.name || file.name).normalize();
    if (!isValidFileName(usedName)) throw new ApplicationError('File name contains invalid characters');
    const stat = await fs.promises.stat(file.path);
    if (exceedsSizeLimit(stat.size, config.sizeLimit)) throw sizeLimitError(file.name, config.sizeLimit);
    const { mime, ext } = typeOf(sniffType(file.head ?? (await readHead(file.path))), file.name, keep?.ext);
    checkSecurity(mime, file.name);
    for (const target of targets) checkAllowedType(target, mime, file.name);
    const hash = fitHash(keep?.hash ?? generateHash(hashBaseName(usedName, path.extname(file.name))), ext);

    let content: ImageFile = { path: file.path, width: null, height: null, bytes: stat.size };
    let formats: Array<ImageFile & { key: string }> = [];
    if (mime.startsWith('image/')) {
      const dir = await fs.promises.mkdtemp(path.join(workDir, 'img-'));
      try {
        const image = await processImage(file.path, mime, dir, await library.getSettings(), config.breakpoints);
        if (image) ({ formats, ...content } = image);
      } catch (err) {
        if (err instanceof InvalidImageError) throw new ApplicationError(err.message);
        throw err;
      }
    }
    // v4 checks the size of what it stores (the re-encoded image), through the provider
    await provider.checkFileSize({ name: usedName, size: bytesToKbytes(content.bytes) }, config.sizeLimit);
    const entity = {
      name: usedName,
      alternativeText: info.alternativeText ?? null,
      caption: info.caption ?? null,
      hash, ext, mime,
      size: bytesToKbytes(content.bytes),
      width: content.width, height: content.height,
    };
    const original = providerFile({ ...entity, sizeInBytes: content.bytes }, content.path);
    return {
      entity,
      original,
      disposablePath: content.path !== file.path || file.disposable ? content.path : undefined,
      formats: formats.map((f) => ({
        key: f.key,
        path: f.path,
        file: providerFile({
          name: `${f.key}_${usedName}`, hash: fitHash(`${f.key}_${hash}`, ext), ext, mime, path: null,
          width: f.width, height: f.height, size: bytesToKbytes(f.bytes), sizeInBytes: f.bytes,
        }, f.path),
      })),
    };
  }

  /**
   * stores the original and its formats, remembering each file handed to the provider for a rollback: one whose
   * write failed may have left an object behind (a remote store that kept part of it)
   */
  async function store(p: PreparedFile, stored: ProviderFile[]): Promise<Record<string, unknown>> {
    stored.push(p.original);
    await provider.store(p.original, p.disposablePath);
    const formats: Record<string, FormatRecord> = {};
    for (const { key, file, path: source } of p.formats) {
      stored.push(file);
      await provider.store(file, source);
      formats[key] = formatRecord(file);
    }
    return {
      ...p.entity,
      url: p.original.url,
      provider_metadata: p.original.provider_metadata ?? null,
      formats: p.formats.length ? formats : null,
      provider: config.provider,
    };
  }

  async function unstore(stored: ProviderFile[]): Promise<void> {
    for (const f of stored) {
      await provider.remove(f).catch((err) => d.log.warn({ err }, `upload: could not remove ${f.hash}${f.ext} after a failed upload`));
    }
  }

  async function withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tessera-work-'));
    try {
      return await fn(dir);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** v4 updates a file through its entity service (`entry.update` of model `file`), then emits `media.update` */
  const updatedEvents = (file: Entity): Entity => {
    webhooksOf(db)?.entry('entry.update', FILE_UID, file);
    webhooksOf(db)?.media('media.update', file);
    return file;
  };
  const readFile = (id: number, populate?: Populate) => files().findOne({ where: { id }, select: d.visibleFields, populate });

  /** the media attributes using a file; changing it from REST (`auth`) needs `update` on their entries unless configured off */
  async function usagesForChange(fileId: number, auth: Auth | undefined): Promise<AttachTarget[]> {
    const tx = currentHookTransaction() ?? db;
    const usages = await fileUsages(tx, d.attach, fileId);
    if (auth && config.security.requireEntryUpdate) await authorizeEntryChange(tx, d.attach, auth, usages);
    return usages;
  }

  let privateProvider: Promise<boolean> | undefined; // asked once, as v4 does at start-up
  async function signed(file: Entity): Promise<Entity> {
    privateProvider ??= provider.isPrivate();
    if (!(await privateProvider) || file.provider !== config.provider) return file;
    const out: Entity = { ...file, url: (await provider.getSignedUrl(file)).url };
    if (out.formats && typeof out.formats === 'object') {
      const formats: Record<string, FormatRecord> = {};
      for (const [k, f] of Object.entries(out.formats as Record<string, FormatRecord>)) formats[k] = { ...f, url: (await provider.getSignedUrl(f)).url };
      out.formats = formats;
    }
    return out;
  }

  /** the stored objects of a file row (original and formats), when they belong to the configured provider */
  const storedObjects = (file: Entity): Array<{ hash: string; ext: string }> =>
    file.provider === config.provider ? [file, ...Object.values((file.formats ?? {}) as Record<string, FormatRecord>)] as Array<{ hash: string; ext: string }> : [];

  const service = {
    /** `upload({ data: { fileInfo, ref, refId, field }, files })`; `auth` (REST) also checks the attach target's update permission */
    async upload({ data = {}, files: input }: { data?: UploadData; files: IncomingFile | IncomingFile[] }, opts: { auth?: Auth } = {}): Promise<Entity[]> {
      const list = Array.isArray(input) ? input : [input];
      const infos = Array.isArray(data.fileInfo) ? data.fileInfo : [data.fileInfo];
      return withWorkDir(async (workDir) => {
        const target = await resolveAttachTarget(currentHookTransaction() ?? db, d.attach, config.security.requireEntryUpdate ? opts.auth : undefined, data);
        const prepared: PreparedFile[] = [];
        for (const [i, file] of list.entries()) prepared.push(await prepare(file, infos[i] ?? {}, workDir, target ? [target] : []));
        const folder = await library.apiUploadFolder();
        const stored: ProviderFile[] = [];
        try {
          const rows: Array<Record<string, unknown>> = [];
          for (const p of prepared) rows.push(await store(p, stored));
          const ids = await transactionOrHook(db, async (tx) => {
            const attachTo = target && (await resolveAttachTarget(tx, d.attach, undefined, data)); // still there?
            const out: number[] = [];
            for (const row of rows) {
              // the whole row read back, as v4's create does: afterCreate hooks of plugin::upload.file see it
              const created = await files(tx).create({ data: { ...row, folder: folder.id, folderPath: folder.path } });
              if (attachTo) await writeAttachLink(tx, attachTo, created.id);
              out.push(created.id);
            }
            return out;
          });
          // inside an open transaction (strapi.db.transaction, a lifecycle hook): the stored files go if it rolls back
          whenTransactionEnds(db, (committed) => void (committed || unstore(stored)));
          const created = await files().findMany({ where: { id: { $in: ids } }, select: d.visibleFields });
          const byId = new Map(created.map((r) => [r.id, r]));
          for (const id of ids) webhooksOf(db)?.media('media.create', byId.get(id));
          const result: Entity[] = [];
          for (const id of ids) result.push(await signed(byId.get(id)!));
          return result;
        } catch (err) {
          await unstore(stored);
          throw err;
        }
      });
    },

    /** v4's uploadToEntity: files of a multipart entry write, attached to the new entry's media attribute */
    async uploadToEntity(params: { id: number; model: string; field: string }, input: IncomingFile | IncomingFile[]): Promise<Entity[]> {
      return service.upload({ data: { ref: params.model, refId: params.id, field: params.field }, files: input });
    },

    /**
     * `POST /upload?id=X` with a file: new content under the same hash (and extension while it still names
     * the content's type, so the url stays). The allowedTypes of every attribute using the file apply, and
     * from REST (`auth`) the caller must be allowed to update the entries using it (requireEntryUpdate).
     */
    async replace(id: unknown, { data = {}, file }: { data?: { fileInfo?: FileInfo }; file: IncomingFile }, opts: { auth?: Auth } = {}): Promise<Entity> {
      const current = await service.findOneRaw(id);
      if (!current) throw new NotFoundError();
      const usages = await usagesForChange(current.id, opts.auth);
      return withWorkDir(async (workDir) => {
        const p = await prepare(file, data.fileInfo ?? {}, workDir, usages, { hash: String(current.hash), ext: String(current.ext ?? '') });
        // v4 deletes the old files of its own provider; here only those the new content did not overwrite, after the commit
        const old = storedObjects(current);
        const oldKeys = new Set(old.map(keyOf));
        const stored: ProviderFile[] = [];
        const unstoreNew = () => unstore(stored.filter((f) => !oldKeys.has(keyOf(f)))); // overwritten content cannot come back
        try {
          const row = await store(p, stored);
          const values: Record<string, unknown> = { ...row, formats: row.formats ?? {} };
          if (data.fileInfo?.alternativeText === undefined) delete values.alternativeText;
          if (data.fileInfo?.caption === undefined) delete values.caption;
          await transactionOrHook(db, (tx) => files(tx).update({ where: { id: current.id }, data: values, select: [] }));
        } catch (err) {
          await unstoreNew();
          throw err;
        }
        const newKeys = new Set(stored.map(keyOf));
        const removeOld = async () => {
          for (const f of old) {
            if (newKeys.has(keyOf(f))) continue;
            await provider.remove(f as { hash: string; ext: string }).catch((err) => d.log.warn({ err }, `upload: could not remove ${keyOf(f)}, replaced in file ${current.id}`));
          }
        };
        if (!whenTransactionEnds(db, (committed) => void (committed ? removeOld() : unstoreNew()))) await removeOld();
        return signed(updatedEvents((await readFile(current.id))!));
      });
    },

    /** `POST /upload?id=X` without a file: name, alternativeText and caption; null or absent keeps the old value */
    async updateFileInfo(id: unknown, info: FileInfo = {}, opts: { auth?: Auth } = {}): Promise<Entity> {
      const current = await service.findOneRaw(id);
      if (!current) throw new NotFoundError();
      await usagesForChange(current.id, opts.auth);
      const data: Record<string, unknown> = {
        name: info.name ?? current.name,
        alternativeText: info.alternativeText ?? current.alternativeText,
        caption: info.caption ?? current.caption,
      };
      await transactionOrHook(db, (tx) => files(tx).update({ where: { id: current.id }, data, select: [] }));
      return signed(updatedEvents((await readFile(current.id))!));
    },

    /**
     * v4's order: the stored files (original and formats) first, then the row and its links in one transaction,
     * so a provider that fails (500) leaves the row and a retry finishes the job. Inside an open transaction
     * the files go once it commits instead: a rollback brings the row back.
     */
    async remove(file: Entity): Promise<Entity | null> {
      const inTransaction = currentHookTransaction() !== undefined;
      if (!inTransaction) {
        const current = await service.findOneRaw(file.id);
        if (!current) return null;
        for (const f of storedObjects(current)) await provider.remove(f);
      }
      const deleted = await transactionOrHook(db, (tx) => files(tx).delete({ where: { id: file.id } }));
      if (!deleted) return null;
      webhooksOf(db)?.media('media.delete', deleted);
      if (inTransaction) {
        const removeStored = async () => {
          for (const f of storedObjects(deleted)) {
            await provider.remove(f).catch((err) => d.log.warn({ err }, `upload: could not remove a stored file of file ${file.id}`));
          }
        };
        whenTransactionEnds(db, (committed) => void (committed && removeStored()));
      }
      return deleted;
    },

    /** every column (private ones too): for the service's own use */
    async findOneRaw(id: unknown): Promise<Entity | null> {
      const n = fileId(id);
      return n === null ? null : files().findOne({ where: { id: n } });
    },

    /** v4's findOne(id, populate): the visible fields */
    async findOne(id: unknown, populate?: Populate): Promise<Entity | null> {
      const n = fileId(id);
      const file = n === null ? null : await readFile(n, populate);
      return file ? signed(file) : null;
    },

    /** storage-level params (already validated) */
    async findMany(params: FindParams = {}): Promise<Entity[]> {
      const list = await files().findMany({ select: d.visibleFields, ...params });
      const out: Entity[] = [];
      for (const f of list) out.push(await signed(f));
      return out;
    },

    getSettings: () => library.getSettings(),
    setSettings: (value: Parameters<Library['setSettings']>[0]) => library.setSettings(value),
    getConfiguration: () => library.getConfiguration(),
    setConfiguration: (value: unknown) => library.setConfiguration(value),
  };
  return service;
}

export type UploadService = ReturnType<typeof createUploadService>;
