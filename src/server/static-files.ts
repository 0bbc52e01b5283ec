// Files under the project's public folder (and the upload plugin's `public/uploads`), served with no way
// out of the folder: a path is served only in its canonical spelling (decoded once: no `.`, `..` or empty
// segment, no backslash, no encoded slash, no NUL), and the resolved REAL path must stay inside the real root
// (symlinks pointing outside and hidden `.files` fail too). Whatever resolves inside the uploads folder is
// uploaded content, served sandboxed, whichever handler and spelling reached it.
// Served with v4's caching headers plus validators (Last-Modified, ETag -> 304) and byte ranges (206).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** extension -> media type; the one table for serving files and for naming uploads */
const TYPES: Record<string, string> = {
  '.html': 'text/html', '.htm': 'text/html', '.xhtml': 'application/xhtml+xml', '.txt': 'text/plain', '.text': 'text/plain',
  '.css': 'text/css', '.csv': 'text/csv', '.tsv': 'text/tab-separated-values', '.md': 'text/markdown', '.markdown': 'text/markdown',
  '.ics': 'text/calendar', '.vtt': 'text/vtt', '.srt': 'application/x-subrip', '.yaml': 'text/yaml', '.yml': 'text/yaml',
  '.js': 'application/javascript', '.mjs': 'application/javascript', '.json': 'application/json', '.jsonld': 'application/ld+json',
  '.map': 'application/json', '.xml': 'application/xml', '.webmanifest': 'application/manifest+json',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.jpe': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.avif': 'image/avif', '.heic': 'image/heic', '.heif': 'image/heif', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
  '.bmp': 'image/bmp', '.tif': 'image/tiff', '.tiff': 'image/tiff', '.psd': 'image/vnd.adobe.photoshop',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.gz': 'application/gzip', '.tgz': 'application/gzip',
  '.7z': 'application/x-7z-compressed', '.rar': 'application/vnd.rar', '.tar': 'application/x-tar',
  '.doc': 'application/msword', '.xls': 'application/vnd.ms-excel', '.ppt': 'application/vnd.ms-powerpoint',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text', '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.odp': 'application/vnd.oasis.opendocument.presentation', '.epub': 'application/epub+zip', '.rtf': 'application/rtf',
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.mov': 'video/quicktime', '.webm': 'video/webm', '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo', '.3gp': 'video/3gpp', '.ogv': 'video/ogg',
  '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.oga': 'audio/ogg', '.opus': 'audio/ogg',
  '.flac': 'audio/flac', '.aac': 'audio/aac',
  '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.otf': 'font/otf',
  '.wasm': 'application/wasm', '.bin': 'application/octet-stream', '.exe': 'application/octet-stream',
  '.sqlite': 'application/vnd.sqlite3', '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json',
};

/** the extension a media type is written with when a file's own name has none that fits */
const CANONICAL_EXT: Record<string, string> = {
  'image/jpeg': '.jpeg', 'text/plain': '.txt', 'text/html': '.html', 'text/markdown': '.md', 'text/yaml': '.yaml',
  'image/tiff': '.tiff', 'application/javascript': '.js', 'video/mp4': '.mp4', 'audio/ogg': '.ogg', 'application/gzip': '.gz',
  'application/octet-stream': '.bin', 'image/heic': '.heic',
};

/** Types a browser may run script in when opened directly: served from uploads sandboxed. */
const ACTIVE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml', 'application/xml', 'text/xml', 'application/javascript', 'text/javascript']);

export function mimeOfExtension(ext: string): string | undefined {
  return TYPES[ext.toLowerCase()];
}

export function extensionOfMime(mime: string): string | undefined {
  if (CANONICAL_EXT[mime]) return CANONICAL_EXT[mime];
  for (const [ext, m] of Object.entries(TYPES)) if (m === mime) return ext;
  return undefined;
}

export function isActiveContent(mime: string): boolean {
  return ACTIVE_TYPES.has(mime);
}

/** a media type as a Content-Type header: textual types with `charset=utf-8` */
function withCharset(type: string): string {
  return type.startsWith('text/') || type === 'application/javascript' || type === 'application/json' || type === 'image/svg+xml'
    ? `${type}; charset=utf-8`
    : type;
}

/** The Content-Type header for a served file. */
export function contentTypeOf(file: string): string {
  return withCharset(mimeOfExtension(path.extname(file)) ?? 'application/octet-stream');
}

/** koa's `ctx.type = value` (a media type, or an extension with or without its dot) -> the Content-Type header, if known */
export function contentTypeFor(value: string): string | undefined {
  if (value.includes('/')) return /;\s*charset=/i.test(value) ? value : withCharset(value.toLowerCase());
  const type = mimeOfExtension(value.startsWith('.') ? value : `.${value}`);
  return type === undefined ? undefined : withCharset(type);
}

export interface PublicFile {
  /** real path, inside the real root */
  path: string;
  stat: fs.Stats;
  /** the real path is inside the uploads folder: uploaded content */
  untrusted: boolean;
}

/** The folder uploads are stored in and served from (`/uploads/*`), under the public folder as in v4. */
export function uploadsDirOf(publicDir: string): string {
  return path.join(publicDir, 'uploads');
}

/**
 * The decoded path of a URL (its query ignored) when it is spelled canonically; null when it names a file in
 * another spelling (`//`, `.` and `..` segments, encoded or not, a backslash or an encoded slash or
 * backslash, NUL): such a spelling could reach another handler than the canonical path, so it is refused,
 * never normalised. 'malformed' when an escape is not UTF-8.
 */
export function canonicalFilePath(url: string): string | null | 'malformed' {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  if (raw.includes('\\') || /%(2f|5c|00)/i.test(raw)) return null;
  let decoded: string;
  try {
    decoded = raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    return 'malformed';
  }
  return decoded.startsWith('/') && path.posix.normalize(decoded) === decoded ? decoded : null;
}

async function realpathOrNull(p: string): Promise<string | null> {
  try {
    return await fs.promises.realpath(p);
  } catch {
    return null;
  }
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root + path.sep);
}

/**
 * The existing regular file this URL path names under `root` (directories: their index.html), or null;
 * `untrusted` when its real path lies inside the real `uploadsDir` (a link in the public folder, say).
 */
export async function resolvePublicFile(root: string, urlPath: string, opts: { uploadsDir?: string } = {}): Promise<PublicFile | null> {
  const decoded = canonicalFilePath(urlPath);
  if (decoded === null || decoded === 'malformed') return null;
  // hidden files and folders (.env, .git, .tmp) are never served, as koa-static's default
  if (decoded.split('/').some((seg) => seg.startsWith('.'))) return null;
  const realRoot = await realpathOrNull(root);
  if (!realRoot) return null;
  let real = await realpathOrNull(path.join(realRoot, decoded));
  if (!real || !inside(realRoot, real)) return null;
  let stat = await fs.promises.stat(real).catch(() => null);
  if (stat?.isDirectory()) {
    real = await realpathOrNull(path.join(real, 'index.html'));
    if (!real || !inside(realRoot, real)) return null;
    stat = await fs.promises.stat(real).catch(() => null);
  }
  if (!stat?.isFile()) return null;
  const realUploads = opts.uploadsDir ? await realpathOrNull(opts.uploadsDir) : null;
  return { path: real, stat, untrusted: realUploads !== null && inside(realUploads, real) };
}

export interface SendOptions {
  /** Cache-Control max-age in seconds */
  maxAge: number;
  /** uploaded content: types that could run script are sandboxed and downloaded, never rendered in our origin */
  untrusted?: boolean;
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range) -> inclusive offsets; 'invalid' for an unsatisfiable range. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // malformed or multi-range: serve the whole file
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

function etagOf(stat: fs.Stats): string {
  return `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
}

function notModified(req: FastifyRequest, stat: fs.Stats, etag: string): boolean {
  const inm = req.headers['if-none-match'];
  if (inm) return inm.split(',').some((t) => t.trim() === etag || t.trim() === '*');
  const ims = req.headers['if-modified-since'];
  if (!ims) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(stat.mtimeMs / 1000) * 1000 <= since;
}

/** Sends a resolved file: caching headers, 304, HEAD, one byte range. */
export function sendPublicFile(req: FastifyRequest, reply: FastifyReply, file: PublicFile, opts: SendOptions): FastifyReply {
  const { stat } = file;
  const etag = etagOf(stat);
  const type = contentTypeOf(file.path);
  reply.header('cache-control', `max-age=${Math.max(0, Math.floor(opts.maxAge))}`);
  reply.header('last-modified', stat.mtime.toUTCString());
  reply.header('etag', etag);
  reply.header('accept-ranges', 'bytes');
  reply.header('x-content-type-options', 'nosniff');
  if ((opts.untrusted || file.untrusted) && isActiveContent(type.split(';')[0])) {
    reply.header('content-security-policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
    if (!type.startsWith('image/')) reply.header('content-disposition', 'attachment');
  }
  reply.type(type);
  if (notModified(req, stat, etag)) return reply.code(304).send();
  const range = req.headers['if-range'] && req.headers['if-range'] !== etag ? null : parseRange(req.headers.range, stat.size);
  if (range === 'invalid') {
    reply.header('content-range', `bytes */${stat.size}`);
    return reply.code(416).type('text/plain; charset=utf-8').send('Range Not Satisfiable');
  }
  const { start, end } = range ?? { start: 0, end: stat.size - 1 };
  const length = stat.size === 0 ? 0 : end - start + 1;
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${stat.size}`);
  reply.header('content-length', String(length));
  if (req.method === 'HEAD' || length === 0) return reply.send();
  return reply.send(fs.createReadStream(file.path, { start, end }));
}
