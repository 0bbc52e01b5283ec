// vitest setup file: each test file gets a temporary folder of its own as TMPDIR (inside the run's, see
// temp-dir-global.ts). After the file's own afterAll hooks (servers stopped, folders removed) it must be
// empty: whatever a test left there fails the file, named, and is removed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';

/** compile caches of tools the tests run as child processes (tsx): not a test's leftovers */
const CACHES = /^tsx-\d+$/;

const runDir = process.env.TESSERA_TEST_TMP;
if (runDir && fs.existsSync(runDir)) {
  const fileDir = fs.mkdtempSync(path.join(runDir, 'file-'));
  process.env.TMPDIR = fileDir;
  // registered before the test file's hooks, so it runs after them (afterAll hooks run in reverse order)
  afterAll(() => {
    process.env.TMPDIR = runDir;
    const left = fs.readdirSync(fileDir).filter((e) => !CACHES.test(e)).map((e) => leftover(path.join(fileDir, e)));
    fs.rmSync(fileDir, { recursive: true, force: true });
    if (left.length) throw new Error(`the test file left temporary files behind (now removed): ${left.join('; ')}; remove what a test creates, also when it fails (afterAll / finally)`);
  });
}

/** a leftover's name and, for a folder, some of what it holds (which test wrote there) */
function leftover(p: string): string {
  if (!fs.statSync(p).isDirectory()) return path.basename(p);
  const inside = (fs.readdirSync(p, { recursive: true }) as string[]).sort();
  return `${path.basename(p)}/ [${inside.slice(0, 8).join(', ')}${inside.length > 8 ? `, … ${inside.length} entries` : ''}]`;
}
