// Test projects under test/plugin-projects/ install real v4 plugins and providers from the registry (their own
// package.json and lockfile). Installed once per clone, reinstalled when the lockfile changes; nothing in it
// needs a native build.
import path from 'node:path';
import { installLocked } from './locked-install';

export const PLUGIN_PROJECTS_DIR = path.resolve(__dirname, '../plugin-projects');

export default function setup(): void {
  installLocked(PLUGIN_PROJECTS_DIR);
}
