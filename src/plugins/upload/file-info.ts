// The `fileInfo` of an upload request, validated as v4 does (a yup schema, strict off): a JSON string or
// an object per file (an array of them for several files), with string-or-null `name`, `alternativeText`
// and `caption`. Errors carry v4's yup messages and `details.errors` paths.
import { ValidationError } from '../../errors';

export interface FileInfo {
  name?: string | null;
  alternativeText?: string | null;
  caption?: string | null;
}

interface YupIssue {
  path: string[];
  message: string;
  name: 'ValidationError';
}

const KEYS = ['name', 'alternativeText', 'caption'] as const;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** yup's printSimpleValue (quoteStrings on): null for what is not a simple value */
function printSimple(v: unknown): string | null {
  if (v === null || v === undefined || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return `"${v}"`;
  return null;
}

/** yup's printValue: nested simple values are printed (so quoted) as well */
function printValue(v: unknown): string {
  return printSimple(v) ?? JSON.stringify(v, function (this: Record<string, unknown>, key) {
    return printSimple(this[key]) ?? this[key];
  }, 2);
}

function dotted(path: string[]): string {
  return path.reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

function typeIssue(path: string[], type: string, original: unknown, cast: unknown): YupIssue {
  const castNote = cast !== original ? ` (cast from the value \`${printValue(original)}\`)` : '';
  return { path, message: `${dotted(path)} must be a \`${type}\` type, but the final value was: \`${printValue(cast)}\`${castNote}.`, name: 'ValidationError' };
}

/** yup object()/array() transform: a string is JSON-parsed; anything not of the type becomes null */
function castJson(value: unknown, isType: (v: unknown) => boolean): unknown {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      v = null;
    }
  }
  return isType(v) ? v : typeof value === 'string' ? null : value;
}

function oneInfo(value: unknown, path: string[], issues: YupIssue[]): FileInfo | undefined {
  if (value === undefined) return undefined;
  const obj = castJson(value, isPlainObject);
  if (!isPlainObject(obj)) {
    issues.push(typeIssue(path, 'object', value, obj));
    return undefined;
  }
  const info: FileInfo = {};
  for (const key of KEYS) {
    const v = obj[key];
    if (v === undefined) continue;
    if (v === null || typeof v === 'string') info[key] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') info[key] = String(v);
    else issues.push(typeIssue([...path, key], 'string', v, v));
  }
  return info;
}

function fail(issues: YupIssue[]): never {
  const message = issues.length === 1 ? issues[0].message : `${issues.length} errors occurred`;
  throw new ValidationError(message, { errors: issues });
}

/** `fileInfo` for one file (an object) or several (an array); undefined when absent */
export function parseFileInfo(raw: unknown, multiple: boolean): FileInfo | FileInfo[] | undefined {
  const issues: YupIssue[] = [];
  if (!multiple) {
    const info = oneInfo(raw, ['fileInfo'], issues);
    if (issues.length) fail(issues);
    return info;
  }
  if (raw === undefined) return undefined;
  const list = castJson(raw, Array.isArray);
  if (!Array.isArray(list)) fail([typeIssue(['fileInfo'], 'array', raw, list)]);
  const infos = list.map((item, i) => oneInfo(item, ['fileInfo', String(i)], issues) ?? {});
  if (issues.length) fail(issues);
  return infos;
}

/** a multipart field that should hold one value: the last one when repeated */
export function singleField(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[v.length - 1] : v;
}
