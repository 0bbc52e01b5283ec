// Where the fixture app (test/fixtures/strapi4-app) lives, its Model, and private copies of it for a server.
import fs from 'node:fs';
import path from 'node:path';
import { buildModel } from '../../src/model/build-model';
import { internalModelSources } from '../../src/model/internal-models';
import type { Model } from '../../src/model/types';
import { loadApiContentTypes, loadComponents } from '../../src/project/schemas';

export const REPO = path.resolve(__dirname, '../..');
export const BENCH_DIR = path.resolve(__dirname, '..');
export const FIXTURE_APP = path.join(REPO, 'test/fixtures/strapi4-app');
export const FIXTURE_DATA = path.join(FIXTURE_APP, 'fixture-data');
/** datasets and scratch copies (git-ignored) */
export const CACHE_DIR = path.join(BENCH_DIR, '.cache');

let model: Model | undefined;
export function fixtureModel(): Model {
  model ??= buildModel([...internalModelSources(), ...loadApiContentTypes(FIXTURE_APP).sources, ...loadComponents(FIXTURE_APP)]);
  return model;
}

/** A private, writable project folder: the fixture app's code with `dbFile` as its database and the fixture uploads. */
export function makeProjectCopy(dir: string, dbFile: string): string {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const part of ['package.json', 'config', 'src', 'public', 'favicon.png']) {
    fs.cpSync(path.join(FIXTURE_APP, part), path.join(dir, part), { recursive: true });
  }
  fs.mkdirSync(path.join(dir, '.tmp'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'public/uploads'), { recursive: true });
  fs.copyFileSync(dbFile, path.join(dir, '.tmp/data.db'));
  copyUploads(path.join(dir, 'public/uploads'));
  fs.copyFileSync(path.join(FIXTURE_DATA, 'token.txt'), path.join(dir, '.tmp/token.txt'));
  for (const p of walk(dir)) fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
  return dir;
}

export function copyUploads(to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(path.join(FIXTURE_DATA, 'uploads'))) fs.copyFileSync(path.join(FIXTURE_DATA, 'uploads', f), path.join(to, f));
}

function walk(dir: string): string[] {
  return [dir, ...fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))];
}

/** The full-access API token stored (hashed) in the fixture database, and so in every dataset. */
export function fixtureToken(): string {
  return fs.readFileSync(path.join(FIXTURE_DATA, 'token.txt'), 'utf8').trim();
}
