// vitest globalSetup: the run gets one temporary folder of its own, the TMPDIR of every test worker and of
// every process a test starts (os.tmpdir() follows it), so what a run leaves behind is known: at the end it is
// reported, fails the run, and is removed with the folder. Each test file checks its own part first
// (temp-dir-setup.ts), naming the file; what remains here comes from files that did not get to their end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const outer = os.tmpdir();
  const runDir = fs.mkdtempSync(path.join(outer, 'tessera-test-run-'));
  process.env.TESSERA_TEST_TMP = runDir;
  process.env.TMPDIR = runDir;
  return () => {
    const left = fs.readdirSync(runDir).flatMap((e) => (e.startsWith('file-') ? fs.readdirSync(path.join(runDir, e)).map((f) => `${e}/${f}`) : [e]));
    fs.rmSync(runDir, { recursive: true, force: true });
    process.env.TMPDIR = outer;
    if (left.length) {
      console.error(`\nthe test run left ${left.length} temporary entries behind (now removed):\n  ${left.join('\n  ')}`);
      process.exitCode = 1;
    }
  };
}
