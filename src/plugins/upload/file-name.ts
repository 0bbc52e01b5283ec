// Names and sizes as v4 writes them: `<slug of the name>_<10 random hex>` hashes, valid file names,
// sizes in KB with two decimals, and the human-readable sizes of its error messages.
import crypto from 'node:crypto';
import path from 'node:path';

const RESERVED_CHARS = /[<>:"/\\|?*\u0000-\u001F]/;
const RESERVED_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** v4 (valid-filename): no path separators, control characters or reserved names, at most 255 characters */
export function isValidFileName(name: string): boolean {
  if (!name || name.length > 255) return false;
  if (RESERVED_CHARS.test(name) || RESERVED_NAMES.test(name)) return false;
  return name !== '.' && name !== '..';
}

const REPLACEMENTS: Array<[RegExp, string]> = [
  [/&/g, ' and '], [/♥/g, ' love '], [/@/g, ' at '],
  [/Ä/g, 'Ae'], [/Ö/g, 'Oe'], [/Ü/g, 'Ue'], [/ä/g, 'ae'], [/ö/g, 'oe'], [/ü/g, 'ue'], [/ß/g, 'ss'],
  [/Æ/g, 'AE'], [/æ/g, 'ae'], [/Ø/g, 'O'], [/ø/g, 'o'], [/Œ/g, 'OE'], [/œ/g, 'oe'], [/Ł/g, 'L'], [/ł/g, 'l'], [/Đ/g, 'D'], [/đ/g, 'd'],
];

/** @sindresorhus/slugify with `{ separator: '_', lowercase: false }` (v4's nameToSlug), for Latin scripts */
export function slugifyName(name: string): string {
  let s = name;
  for (const [re, to] of REPLACEMENTS) s = s.replace(re, to);
  s = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  // decamelize: fooBar -> foo Bar, HTMLFile -> HTML File, foo2x stays. The second step is decamelize's
  // `([A-Z]+)([A-Z][a-z\d]+)` -> '$1 $2' written as a space after the capital that starts a capital-lowercase
  // pair: the same result, without retrying every start inside a long run of capitals (quadratic)
  s = s.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/[A-Z](?=[A-Z][a-z\d])/g, '$& ');
  return s.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** `<slug>_<10 hex>`; the random part makes every stored name unguessable and unique */
export function generateHash(baseName: string): string {
  return `${slugifyName(baseName)}_${crypto.randomBytes(5).toString('hex')}`;
}

/**
 * Every stored key `<hash><ext>` fits one file name on common file systems (ext4, APFS, NTFS: 255 bytes), and its
 * local URL `/uploads/<key>` fits v4's `url` column (varchar(255), which PostgreSQL enforces: a longer one fails the
 * insert there).
 */
export const MAX_KEY_BYTES = 255 - '/uploads/'.length;
const RANDOM_TAIL = /_[0-9a-f]{10}$/;

/**
 * `hash` as it is when `<hash><ext>` fits MAX_KEY_BYTES (v4's keys unchanged); else its readable part cut
 * short, the random tail (what makes it unique) kept. A 250-character name, or `thumbnail_` before it,
 * would otherwise fail the file system's limit or the url column's (v4: 500).
 */
export function fitHash(hash: string, ext: string): string {
  const room = MAX_KEY_BYTES - Buffer.byteLength(ext);
  if (Buffer.byteLength(hash) <= room) return hash;
  const tail = RANDOM_TAIL.exec(hash)?.[0] ?? '';
  const head = Array.from(hash.slice(0, hash.length - tail.length));
  let bytes = Buffer.byteLength(head.join('')) + tail.length;
  while (head.length && bytes > room) bytes -= Buffer.byteLength(head.pop()!);
  return head.join('') + tail;
}

/** the base of the name the hash is made from: the used name without the original file's extension */
export function hashBaseName(usedName: string, originalExt: string): string {
  return path.basename(usedName, originalExt);
}

/** v4's bytesToKbytes: KB with two decimals */
export function bytesToKbytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

/** v4's bytesToHumanReadable, used in the size-limit message */
export function bytesToHumanReadable(bytes: number): string {
  const sizes = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];
  if (bytes === 0) return '0 Bytes';
  const i = Math.floor(Math.log(bytes) / Math.log(1000));
  return `${Math.round(bytes / 1000 ** i)} ${sizes[i]}`;
}

/** A stored file key (`<hash><ext>`) that cannot leave the uploads folder and fits one file name. */
export function isSafeStorageKey(key: string): boolean {
  return isValidFileName(key) && Buffer.byteLength(key) <= MAX_KEY_BYTES && !key.startsWith('.') && !/[\s]/.test(key.slice(-1));
}
