// What a file really is, from its first bytes (magic numbers), never from the client's Content-Type or
// the file name (the CVE-2026-22707 class: an HTML page uploaded as `photo.png` with `image/png`).
// The client's extension is kept only when it agrees with the content, so a file is never served with
// a type other than the one it was stored as.
import path from 'node:path';
import { extensionOfMime, mimeOfExtension } from '../../server/static-files';

/** how many leading bytes the sniffer looks at */
export const SNIFF_BYTES = 4100;

export interface SniffedType {
  mime: string;
  /** binary: a known signature; markup: text a browser would render (html, svg, xml); text: inert text; unknown: binary without a known signature */
  kind: 'binary' | 'markup' | 'text' | 'unknown';
}

const ascii = (b: Buffer, at: number, s: string) => b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;
const bytes = (b: Buffer, at: number, sig: number[]) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

const ZIP_BASED = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation', 'application/epub+zip',
]);
const OLE_BASED = new Set(['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint']);

/** text types that no browser runs script in */
const INERT_TEXT = new Set([
  'text/plain', 'text/csv', 'text/tab-separated-values', 'text/markdown', 'text/calendar', 'text/vtt', 'text/yaml',
  'application/json', 'application/ld+json', 'application/x-subrip', 'application/manifest+json', 'model/gltf+json', 'text/css',
]);

function isoBmff(b: Buffer): string | null {
  if (!ascii(b, 4, 'ftyp')) return null;
  const brand = b.toString('latin1', 8, 12);
  if (brand === 'avif' || brand === 'avis') return 'image/avif';
  if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
  if (brand === 'qt  ') return 'video/quicktime';
  if (brand.startsWith('M4A') || brand.startsWith('M4B')) return 'audio/mp4';
  if (brand.startsWith('3g')) return 'video/3gpp';
  return 'video/mp4';
}

function zipType(b: Buffer): string {
  const head = b.toString('latin1');
  const declared = /^mimetype(application\/[\w.+-]+)/.exec(head.slice(30, 120));
  if (declared) return declared[1];
  if (head.includes('word/')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (head.includes('xl/')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (head.includes('ppt/')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  return 'application/zip';
}

function binaryType(b: Buffer): string | null {
  if (bytes(b, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (bytes(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'image/gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return 'audio/wav';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'AVI ')) return 'video/x-msvideo';
  if (bytes(b, 0, [0x49, 0x49, 0x2a, 0x00]) || bytes(b, 0, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (ascii(b, 0, 'BM') && b.length >= 26 && b.readUInt32LE(14) >= 12 && b.readUInt32LE(14) <= 124) return 'image/bmp';
  if (bytes(b, 0, [0x00, 0x00, 0x01, 0x00]) && b.length >= 6 && b.readUInt16LE(4) > 0 && b.readUInt16LE(4) < 256) return 'image/x-icon';
  if (ascii(b, 0, '8BPS')) return 'image/vnd.adobe.photoshop';
  const bmff = isoBmff(b);
  if (bmff) return bmff;
  if (bytes(b, 0, [0x1a, 0x45, 0xdf, 0xa3])) return b.includes('webm') ? 'video/webm' : 'video/x-matroska';
  if (ascii(b, 0, 'OggS')) return b.includes('theora') ? 'video/ogg' : 'audio/ogg';
  if (ascii(b, 0, 'fLaC')) return 'audio/flac';
  if (ascii(b, 0, 'ID3') || (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe6) === 0xe2)) return 'audio/mpeg';
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xf6) === 0xf0) return 'audio/aac';
  if (ascii(b, 0, '%PDF-')) return 'application/pdf';
  if (bytes(b, 0, [0x50, 0x4b, 0x03, 0x04])) return zipType(b);
  if (bytes(b, 0, [0x1f, 0x8b])) return 'application/gzip';
  if (bytes(b, 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'application/x-7z-compressed';
  if (ascii(b, 0, 'Rar!\x1a\x07')) return 'application/vnd.rar';
  if (ascii(b, 257, 'ustar')) return 'application/x-tar';
  if (bytes(b, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'application/x-cfb';
  if (ascii(b, 0, 'wOFF')) return 'font/woff';
  if (ascii(b, 0, 'wOF2')) return 'font/woff2';
  if (ascii(b, 0, 'OTTO')) return 'font/otf';
  if (bytes(b, 0, [0x00, 0x01, 0x00, 0x00, 0x00])) return 'font/ttf';
  if (ascii(b, 0, 'glTF')) return 'model/gltf-binary';
  if (ascii(b, 0, 'SQLite format 3\0')) return 'application/vnd.sqlite3';
  if (bytes(b, 0, [0x00, 0x61, 0x73, 0x6d])) return 'application/wasm';
  if (bytes(b, 0, [0x7f, 0x45, 0x4c, 0x46])) return 'application/x-executable';
  if (ascii(b, 0, 'MZ')) return 'application/x-msdownload';
  return null;
}

/** UTF-8 (or UTF-16 with a BOM) without NUL and with few control characters; a cut multi-byte tail is fine. */
function isText(b: Buffer): boolean {
  if (bytes(b, 0, [0xff, 0xfe]) || bytes(b, 0, [0xfe, 0xff])) return true;
  let controls = 0;
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c === 0) return false;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) controls++;
    if (c < 0x80) { i++; continue; }
    const n = c >= 0xf0 && c < 0xf5 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : -1;
    if (n < 0 || c >= 0xf5) return false;
    for (let k = 1; k <= n; k++) {
      if (i + k >= b.length) return controls * 20 <= b.length; // cut at the sniff window
      if ((b[i + k] & 0xc0) !== 0x80) return false;
    }
    i += n + 1;
  }
  return controls * 20 <= b.length;
}

const HTML_MARKERS = ['<!doctype html', '<html', '<head', '<body', '<script', '<iframe', '<object', '<embed', '<frameset', '<meta', '<link', '<style', '<img', '<a ', '<form', '<base', '<svg', '<math', 'javascript:'];

function markupType(text: string): string | null {
  const t = text.replace(/^\ufeff/, '').trimStart().toLowerCase();
  if (t.startsWith('<svg') || (t.startsWith('<?xml') && t.includes('<svg')) || (t.startsWith('<!doctype svg'))) return 'image/svg+xml';
  if (t.startsWith('<?xml')) return t.includes('<html') || t.includes('xhtml') ? 'application/xhtml+xml' : 'application/xml';
  if (HTML_MARKERS.some((m) => t.includes(m))) return 'text/html';
  return null;
}

export function sniffType(head: Buffer): SniffedType {
  const binary = binaryType(head);
  if (binary) return { mime: binary, kind: 'binary' };
  if (head.length === 0) return { mime: 'text/plain', kind: 'text' };
  if (isText(head)) {
    const markup = markupType(head.toString('utf8'));
    return markup ? { mime: markup, kind: 'markup' } : { mime: 'text/plain', kind: 'text' };
  }
  return { mime: 'application/octet-stream', kind: 'unknown' };
}

/** real extensions are short; a longer one (a legal 250-byte name can be nearly all extension) is not kept */
const MAX_EXT_BYTES = 32;

function clientExtension(fileName: string): string {
  const ext = path.extname(fileName);
  return Buffer.byteLength(ext) <= MAX_EXT_BYTES ? ext : '';
}

/**
 * The media type and extension a file is stored with: the sniffed type, and the client's extension only
 * when it names that same type (v4 keeps the client's extension, which is how `evil.png` served HTML).
 */
export function storedType(sniffed: SniffedType, fileName: string): { mime: string; ext: string } {
  const clientExt = clientExtension(fileName);
  const clientMime = clientExt ? mimeOfExtension(clientExt) : undefined;
  const canonical = (mime: string) => ({ mime, ext: extensionOfMime(mime) ?? '.bin' });
  switch (sniffed.kind) {
    case 'binary':
      if (clientMime === sniffed.mime) return { mime: sniffed.mime, ext: clientExt };
      // containers whose exact kind sits deeper than the sniff window: the extension may narrow them down
      if (sniffed.mime === 'application/zip' && clientMime && ZIP_BASED.has(clientMime)) return { mime: clientMime, ext: clientExt };
      if (sniffed.mime === 'application/x-cfb' && clientMime && OLE_BASED.has(clientMime)) return { mime: clientMime, ext: clientExt };
      return canonical(sniffed.mime);
    case 'markup':
      if (clientMime === sniffed.mime) return { mime: sniffed.mime, ext: clientExt };
      // markup inside a type browsers show as text (a README with <img>, JSON with "<script") stays inert
      if (clientMime && INERT_TEXT.has(clientMime)) return { mime: clientMime, ext: clientExt };
      return canonical(sniffed.mime);
    case 'text':
      if (clientMime && INERT_TEXT.has(clientMime)) return { mime: clientMime, ext: clientExt };
      if (clientExt && !clientMime) return { mime: 'text/plain', ext: clientExt }; // .log, .ini: served as a download
      return canonical('text/plain');
    default:
      if (clientExt && (!clientMime || clientMime === 'application/octet-stream')) return { mime: sniffed.mime, ext: clientExt };
      return canonical(sniffed.mime);
  }
}

/** v4's media kinds of `allowedTypes` (images, videos, audios, files) for a media type */
export function mediaKind(mime: string): 'images' | 'videos' | 'audios' | 'files' {
  if (mime.startsWith('image/')) return 'images';
  if (mime.startsWith('video/')) return 'videos';
  if (mime.startsWith('audio/')) return 'audios';
  return 'files';
}
