// The storage behind uploads, v4's provider interface: a provider module exports `init(providerOptions)`
// returning `{ upload?, uploadStream?, delete, checkFileSize?, isPrivate?, getSignedUrl? }`. Configured as
// in v4 by `upload.config.provider` ("local", "aws-s3" -> `@strapi/provider-upload-aws-s3`, or a module
// path) and `providerOptions`; the built-in local provider needs no package.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { toErrorBody } from '../../errors';
import { ProjectError, messageOf } from '../../project/errors';
import { importDefault } from '../../project/require-project';
import { createLocalProvider } from './local-provider';
import { sizeLimitError } from './multipart';

/** A file or format as providers receive it (v4's shape); providers set `url` and may set `provider_metadata`. */
export interface ProviderFile {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  /** KB */
  size: number;
  sizeInBytes?: number;
  width?: number | null;
  height?: number | null;
  path?: string | null;
  url?: string;
  provider_metadata?: Record<string, unknown> | null;
  alternativeText?: string | null;
  caption?: string | null;
  /** set for `uploadStream` */
  stream?: Readable;
  /** set for `upload` (providers without `uploadStream`) */
  buffer?: Buffer;
  getStream(): Readable;
  [key: string]: unknown;
}

/** What a provider module's `init()` returns. */
export interface UploadProviderInstance {
  upload?(file: ProviderFile, options?: unknown): Promise<void> | void;
  uploadStream?(file: ProviderFile, options?: unknown): Promise<void> | void;
  delete(file: { hash: string; ext: string; url?: string; provider_metadata?: unknown; [k: string]: unknown }, options?: unknown): Promise<unknown> | unknown;
  checkFileSize?(file: { name: string; size: number }, options: { sizeLimit: number }): void;
  isPrivate?(): boolean | Promise<boolean>;
  getSignedUrl?(file: { url?: string; [k: string]: unknown }, options?: unknown): Promise<{ url: string }> | { url: string };
  /**
   * Tessera extension: take over a temporary file the plugin no longer needs (the local provider renames it
   * into place instead of copying); return false to fall back to `uploadStream`.
   */
  adoptFile?(file: ProviderFile, tempPath: string): Promise<boolean>;
}

/** The provider as the plugin uses it: every method present, action options applied. */
export interface UploadProvider {
  name: string;
  /**
   * streams `file.getStream()` to storage (uploadStream, or a buffer for upload-only providers); `tempPath`: a file
   * that may be moved instead. A failure the client is not told about (v4: 500) becomes an UploadProviderError.
   */
  store(file: ProviderFile, tempPath?: string): Promise<void>;
  /** a failure the client is not told about (v4: 500) becomes an UploadProviderError */
  remove(file: { hash: string; ext: string; url?: string; provider_metadata?: unknown }): Promise<void>;
  /** v4's `checkFileSize`: the provider's own when it has one, else `size` (KB) against `sizeLimit` (bytes): 413 */
  checkFileSize(file: { name: string; size: number }, sizeLimit: number): Promise<void>;
  isPrivate(): Promise<boolean>;
  getSignedUrl(file: { url?: string; [k: string]: unknown }): Promise<{ url: string }>;
  /** the instance init() returned (`strapi.plugin('upload').provider`) */
  instance: UploadProviderInstance;
}

export interface ProviderInit {
  init(options: Record<string, unknown>): UploadProviderInstance;
}

/**
 * A provider call that failed for a reason of the storage behind it (a bucket gone, a server not answering): the
 * client gets v4's 500, the log this error, which names the provider, the action and the stored key before the
 * provider's own message (`... could not store big_0123456789.jpg: NoSuchBucket: The specified bucket does not
 * exist`), with the provider's stack frames. (Not an error `cause`: the logger would repeat its message.)
 */
export class UploadProviderError extends Error {
  override name = 'UploadProviderError';
  constructor(provider: string, action: 'store' | 'remove', key: string, failure: unknown) {
    const named = failure instanceof Error && failure.name && failure.name !== 'Error' ? `${failure.name}: ` : '';
    super(`upload provider "${provider}" could not ${action} ${key}: ${named}${messageOf(failure)}`);
    const frames = failure instanceof Error && typeof failure.stack === 'string' ? failure.stack.indexOf('\n    at ') : -1;
    if (frames >= 0) this.stack = `${this.name}: ${this.message}${(failure as Error).stack!.slice(frames)}`;
  }
}

/** errors the client sees as v4 shows them (a provider's own 4xx) pass; any other names the provider and the key */
function providerFailure(provider: string, action: 'store' | 'remove', file: { hash: string; ext?: string }, err: unknown): unknown {
  return toErrorBody(err).status === 500 ? new UploadProviderError(provider, action, `${file.hash}${file.ext ?? ''}`, err) : err;
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function loadModule(name: string, projectDir: string, configFile: string): ProviderInit {
  const req = createRequire(path.join(projectDir, 'package.json'));
  const candidates = [`@strapi/provider-upload-${name.toLowerCase()}`, name];
  for (const id of candidates) {
    let resolved: string;
    try {
      resolved = req.resolve(id);
    } catch {
      continue;
    }
    try {
      return importDefault(req(resolved)) as ProviderInit;
    } catch (err) {
      throw new ProjectError(`could not load upload provider "${name}": ${messageOf(err)}`, configFile, err);
    }
  }
  throw new ProjectError(`upload provider "${name}" is not installed (looked for ${candidates.map((c) => `"${c}"`).join(' and ')} from the project folder)`, configFile);
}

export function wrapProvider(name: string, instance: UploadProviderInstance, actionOptions: Record<string, unknown>, configFile: string): UploadProvider {
  if (typeof instance?.delete !== 'function') throw new ProjectError(`The upload provider "${name}" doesn't implement the delete method.`, configFile);
  if (typeof instance.upload !== 'function' && typeof instance.uploadStream !== 'function') {
    throw new ProjectError(`The upload provider "${name}" doesn't implement the uploadStream nor the upload method.`, configFile);
  }
  const opt = (method: string) => actionOptions[method];
  return {
    name,
    instance,
    async store(file, tempPath) {
      try {
        if (tempPath && typeof instance.adoptFile === 'function' && (await instance.adoptFile(file, tempPath))) return;
        if (typeof instance.uploadStream === 'function') {
          file.stream = file.getStream();
          try {
            await instance.uploadStream(file, opt('uploadStream'));
          } finally {
            file.stream.destroy();
            delete file.stream;
          }
          return;
        }
        file.buffer = await toBuffer(file.getStream());
        try {
          await instance.upload!(file, opt('upload'));
        } finally {
          delete file.buffer;
        }
      } catch (err) {
        throw providerFailure(name, 'store', file, err);
      }
    },
    async remove(file) {
      try {
        await instance.delete(file as Parameters<UploadProviderInstance['delete']>[0], opt('delete'));
      } catch (err) {
        throw providerFailure(name, 'remove', file, err);
      }
    },
    async checkFileSize(file, sizeLimit) {
      if (typeof instance.checkFileSize === 'function') await instance.checkFileSize(file, { sizeLimit });
      else if (file.size * 1000 > sizeLimit) throw sizeLimitError(file.name, sizeLimit);
    },
    async isPrivate() {
      return typeof instance.isPrivate === 'function' ? Boolean(await instance.isPrivate()) : false;
    },
    async getSignedUrl(file) {
      if (typeof instance.getSignedUrl !== 'function') return { url: String(file.url ?? '') };
      return instance.getSignedUrl(file, opt('getSignedUrl'));
    },
  };
}

export function createProvider(opts: {
  name: string;
  providerOptions: Record<string, unknown>;
  actionOptions: Record<string, unknown>;
  projectDir: string;
  uploadsDir: string;
}): UploadProvider {
  const configFile = path.join(opts.projectDir, 'config/plugins.js');
  const name = opts.name.toLowerCase();
  let instance: UploadProviderInstance;
  if (name === 'local') {
    instance = createLocalProvider(opts.uploadsDir);
  } else {
    const mod = loadModule(opts.name, opts.projectDir, configFile);
    if (typeof mod?.init !== 'function') throw new ProjectError(`upload provider "${opts.name}" does not export init(providerOptions)`, configFile);
    try {
      instance = mod.init(opts.providerOptions);
    } catch (err) {
      throw new ProjectError(`upload provider "${opts.name}" failed to start: ${messageOf(err)}`, configFile, err);
    }
  }
  return wrapProvider(opts.name, instance, opts.actionOptions, configFile);
}
