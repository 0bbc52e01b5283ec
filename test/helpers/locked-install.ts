// Test folders with their own package.json and lockfile (real v4 plugins, real Strapi), so the main install stays
// small: `npm ci` there when node_modules is missing or was installed from another lockfile (a stamp in
// node_modules holds the lockfile's hash). Each folder's .npmrc turns install scripts off.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const STAMP = '.tessera-lock-sha256';

function lockHash(dir: string): string {
  return createHash('sha256').update(fs.readFileSync(path.join(dir, 'package-lock.json'))).digest('hex');
}

/** `npm ci` in `dir` unless its node_modules was installed from the lockfile as it is now */
export function installLocked(dir: string): void {
  const stamp = path.join(dir, 'node_modules', STAMP);
  const hash = lockHash(dir);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return;
  const started = Date.now();
  const name = path.relative(process.cwd(), dir);
  process.stdout.write(`installing ${name} (npm ci) ...\n`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  fs.writeFileSync(stamp, hash);
  process.stdout.write(`installed ${name} in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
