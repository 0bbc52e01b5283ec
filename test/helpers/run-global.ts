// vitest runs a project's globalSetup once per project. The run-wide ones (one temporary folder for the whole
// run: temp-dir-global.ts; the plugin projects' and real Strapi's installs) must run once whichever projects run: the first
// project to set up does them, and its teardown (vitest tears down in the reverse order, so the last) undoes them.
// When a later global setup fails (no PostgreSQL server: postgres-global.ts), vitest runs no teardown: the
// temporary folder then goes when the process exits.
import besideStrapi from './beside-strapi-global';
import pluginProjects from './plugin-projects-global';
import tempDir from './temp-dir-global';

const DONE = Symbol.for('tessera.test.run-global');

export default function setup(): () => void {
  const state = globalThis as { [DONE]?: boolean };
  if (state[DONE]) return () => undefined;
  state[DONE] = true;
  const removeTempDir = tempDir();
  let removed = false;
  const teardown = () => {
    if (removed) return;
    removed = true;
    state[DONE] = false;
    removeTempDir();
  };
  process.once('exit', teardown);
  pluginProjects();
  besideStrapi();
  return () => {
    process.removeListener('exit', teardown);
    teardown();
  };
}
