// The upload plugin's settings, read once at start-up and checked: `config/plugins.js` ->
// `upload.config` (provider, providerOptions, actionOptions, sizeLimit, breakpoints, security) as in v4,
// and the multipart limits of `strapi::body` (`formidable.maxFileSize`, ...) from config/middlewares.js.
import path from 'node:path';
import type { Project } from '../../project/load-project';
import { ProjectError } from '../../project/errors';
import { parseBytes } from '../../server/middlewares-config';
import { UploadGate } from './multipart';

export interface MultipartLimits {
  /** bytes per file (koa-body/formidable `maxFileSize`, v4 default 200 MiB) */
  maxFileSize: number;
  /** files per request */
  maxFiles: number;
  /** non-file fields per request */
  maxFields: number;
  /** bytes per non-file field */
  maxFieldSize: number;
}

export interface UploadConfig {
  provider: string;
  providerOptions: Record<string, unknown>;
  /** per provider method: the `options` argument (v4 `actionOptions.upload`, ...) */
  actionOptions: Record<string, unknown>;
  /** bytes; v4 default 1 GB */
  sizeLimit: number;
  breakpoints: Record<string, number>;
  /**
   * v5-style allow/deny lists of media types (`image/*` patterns), checked against the sniffed type;
   * `requireEntryUpdate` (Tessera, default true): attaching to an entry, replacing a file or changing its
   * file info also needs `update` on the entries concerned (false: v4, the upload permission alone)
   */
  security: { allowedTypes?: string[]; deniedTypes?: string[]; requireEntryUpdate: boolean };
  /** `providerOptions.localServer.maxage` (ms) for files served from /uploads; v4 default 0 */
  localMaxAgeMs: number;
  multipart: MultipartLimits;
  /** v4 `signAdminURLsOnly`: private providers' urls are signed for the admin panel only, never in entry results */
  signAdminURLsOnly: boolean;
  /** multipart requests read at once (Tessera: `maxConcurrentUploads`, default 32); one more is a 503 */
  uploads: UploadGate;
}

export const DEFAULT_BREAKPOINTS: Readonly<Record<string, number>> = { large: 1000, medium: 750, small: 500 };
export const DEFAULT_SIZE_LIMIT = 1_000_000_000;
export const DEFAULT_MAX_CONCURRENT_UPLOADS = 32;
const DEFAULT_MULTIPART: MultipartLimits = { maxFileSize: 200 * 1024 * 1024, maxFiles: 100, maxFields: 1000, maxFieldSize: 20 * 1024 * 1024 };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeList(v: unknown, key: string, file: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string' || !/^[\w.+-]+\/(\*|[\w.+-]+)$/.test(t))) {
    throw new ProjectError(`upload.config.security.${key} must be a list of media types such as "image/*" or "application/pdf"`, file);
  }
  return v.map((t) => t.toLowerCase());
}

function multipartLimits(project: Project): MultipartLimits {
  const list = project.config.get<unknown[]>('middlewares', []);
  const body = Array.isArray(list) ? list.find((m) => isObject(m) && (m.name === 'strapi::body' || m.resolve === 'strapi::body')) : undefined;
  const cfg = isObject(body) && isObject(body.config) ? body.config : {};
  const f = isObject(cfg.formidable) ? cfg.formidable : {};
  const positive = (v: unknown, fallback: number) => {
    const n = parseBytes(v, fallback);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    maxFileSize: positive(f.maxFileSize, DEFAULT_MULTIPART.maxFileSize),
    maxFiles: positive(f.maxFiles, DEFAULT_MULTIPART.maxFiles),
    maxFields: positive(f.maxFields, DEFAULT_MULTIPART.maxFields),
    maxFieldSize: positive(f.maxFieldsSize, DEFAULT_MULTIPART.maxFieldSize),
  };
}

export function readUploadConfig(project: Project, get: <T>(key: string, fallback?: T) => T): UploadConfig {
  const file = path.join(project.dir, 'config/plugins.js');
  const provider = get<unknown>('provider', 'local');
  if (typeof provider !== 'string' || provider.trim() === '') throw new ProjectError('upload.config.provider must be a provider name such as "local" or "aws-s3"', file);
  const providerOptions = get<unknown>('providerOptions', {}) ?? {};
  if (!isObject(providerOptions)) throw new ProjectError('upload.config.providerOptions must be an object', file);
  const actionOptions = get<unknown>('actionOptions', {}) ?? {};
  if (!isObject(actionOptions)) throw new ProjectError('upload.config.actionOptions must be an object', file);
  // v4's local provider still honours the deprecated `providerOptions.sizeLimit` first
  const sizeLimit = providerOptions.sizeLimit ?? get<unknown>('sizeLimit', DEFAULT_SIZE_LIMIT);
  if (typeof sizeLimit !== 'number' || !Number.isFinite(sizeLimit) || sizeLimit <= 0) {
    throw new ProjectError('upload.config.sizeLimit must be a positive number of bytes', file);
  }
  const breakpoints = get<unknown>('breakpoints', DEFAULT_BREAKPOINTS);
  if (!isObject(breakpoints) || Object.entries(breakpoints).some(([k, v]) => !/^\w+$/.test(k) || typeof v !== 'number' || !Number.isInteger(v) || v <= 0)) {
    throw new ProjectError('upload.config.breakpoints must map format names to positive whole pixel sizes, e.g. { large: 1000, medium: 750, small: 500 }', file);
  }
  const security = get<unknown>('security', {}) ?? {};
  if (!isObject(security)) throw new ProjectError('upload.config.security must be an object', file);
  const requireEntryUpdate = security.requireEntryUpdate ?? true;
  if (typeof requireEntryUpdate !== 'boolean') throw new ProjectError('upload.config.security.requireEntryUpdate must be true or false', file);
  const maxConcurrentUploads = get<unknown>('maxConcurrentUploads', DEFAULT_MAX_CONCURRENT_UPLOADS);
  if (typeof maxConcurrentUploads !== 'number' || !Number.isInteger(maxConcurrentUploads) || maxConcurrentUploads <= 0) {
    throw new ProjectError('upload.config.maxConcurrentUploads must be a positive whole number', file);
  }
  const localServer = isObject(providerOptions.localServer) ? providerOptions.localServer : {};
  const maxage = localServer.maxage ?? localServer.maxAge;
  return {
    provider: provider.trim(),
    providerOptions,
    actionOptions,
    sizeLimit,
    breakpoints: breakpoints as Record<string, number>,
    security: { allowedTypes: typeList(security.allowedTypes, 'allowedTypes', file), deniedTypes: typeList(security.deniedTypes, 'deniedTypes', file), requireEntryUpdate },
    localMaxAgeMs: typeof maxage === 'number' && maxage >= 0 ? maxage : 0,
    multipart: multipartLimits(project),
    signAdminURLsOnly: get<unknown>('signAdminURLsOnly', false) === true,
    uploads: new UploadGate(maxConcurrentUploads),
  };
}

/** `image/*` style pattern match */
export function typeMatches(pattern: string, mime: string): boolean {
  if (pattern.endsWith('/*')) return mime.startsWith(pattern.slice(0, -1));
  return pattern === mime;
}
