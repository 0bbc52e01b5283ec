// Test projects under test/plugin-projects/ install real v4 plugins and providers from the registry (their own
// package.json and lockfile, so the main install stays small). Installed once per clone, reinstalled when the
// lockfile changes: `npm ci` there, with install scripts off (.npmrc; nothing in it needs a native build).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PLUGIN_PROJECTS_DIR = path.resolve(__dirname, '../plugin-projects');

function installed(): boolean {
  const lock = path.join(PLUGIN_PROJECTS_DIR, 'package-lock.json');
  const stamp = path.join(PLUGIN_PROJECTS_DIR, 'node_modules', '.tessera-lock');
  return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === fs.readFileSync(lock, 'utf8');
}

export default function setup(): void {
  if (installed()) return;
  const started = Date.now();
  process.stdout.write('installing test/plugin-projects (npm ci) ...\n');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PLUGIN_PROJECTS_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  fs.copyFileSync(path.join(PLUGIN_PROJECTS_DIR, 'package-lock.json'), path.join(PLUGIN_PROJECTS_DIR, 'node_modules', '.tessera-lock'));
  process.stdout.write(`installed test/plugin-projects in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
