// Requiring the project's own JS files: fresh each time (so `develop` restarts re-read edits) and
// with every failure turned into a ProjectError naming the file.
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { ProjectError, messageOf } from './errors';

const cache = (Module as unknown as { _cache: Record<string, unknown> })._cache;

/** Forget every cached module of the project (not its node_modules), so the next require re-reads it. */
export function clearProjectCache(dir: string): void {
  const root = path.resolve(dir) + path.sep;
  const deps = path.join(root, 'node_modules') + path.sep;
  for (const id of Object.keys(cache)) {
    if (id.startsWith(root) && !id.startsWith(deps)) delete cache[id];
  }
}

/** `module.exports.default` for transpiled ESM, else `module.exports` (v4's importDefault). */
export function importDefault(mod: unknown): unknown {
  return mod && typeof mod === 'object' && (mod as { __esModule?: unknown }).__esModule
    ? (mod as { default?: unknown }).default
    : mod;
}

/** Require one project file; `what` says what kind of file it is in the error ("config file"). */
export function requireProjectFile(file: string, what = 'file'): unknown {
  try {
    return importDefault(createRequire(file)(file));
  } catch (err) {
    throw new ProjectError(`could not load ${what}: ${messageOf(err)}`, file, err);
  }
}

/** Line and column of a JSON.parse error, when its message gives a position. */
function jsonErrorWhere(text: string, err: unknown): string {
  const m = /position (\d+)/.exec(messageOf(err));
  if (!m) return '';
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}

/** Read and parse a JSON file, naming the file and the line of a syntax error. */
export function readJsonFile(file: string, what = 'JSON file'): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ProjectError(`could not read ${what}: ${messageOf(err)}`, file, err);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ProjectError(`invalid ${what}: ${messageOf(err)}${jsonErrorWhere(text, err)}`, file, err);
  }
}

/** Names of the sub-folders of dir ([] when dir is missing), sorted for a stable load order. */
export function subdirs(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/** Files of dir with one of the extensions ([] when dir is missing), sorted. */
export function filesOf(dir: string, exts: string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && exts.includes(path.extname(e.name)))
    .map((e) => e.name)
    .sort();
}
