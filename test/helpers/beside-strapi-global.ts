// Real Strapi 4.26.2 for test/beside-strapi (its own package.json and lockfile). Install scripts are off there:
// better-sqlite3, the one native module that would compile, is left out of that package.json and resolves to the
// repository's own (the same 12.11.1); sharp 0.33.5 ships prebuilt. About 100 s on 2 cores, once per clone.
import path from 'node:path';
import { installLocked } from './locked-install';

export const BESIDE_STRAPI_DIR = path.resolve(__dirname, '../beside-strapi');

export default function setup(): void {
  installLocked(BESIDE_STRAPI_DIR);
}
