// strapi-plugin-populate-deep 3.0.1 (issue 21 part 6) on test/plugin-projects/content-plugins-app: `populate=deep`,
// `deep,N` and `populate[0]=deep&populate[1]=N` on core routes (collection, single and localized types, users,
// a plugin's type), Public and token. v4 lets the string through validation and sanitization; the plugin's
// db.lifecycles subscriber (every model, beforeFindMany / beforeFindOne) replaces the database-level populate
// (['deep', 'N']) by a full populate object, and v4's output sanitizer then shapes the answer. Every answer must
// equal what Strapi 4.26.2 answered running the same project (test/golden/plugins-populate-deep.*), the
// configured defaultDepth (3) and the plugin's 500 on a depth that is not a number (it recurses until the stack
// overflows) included.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import type { RunningApp } from '../helpers/fixture-app';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('content-plugins-app');
});
afterAll(async () => {
  await running?.stop();
});

it('populates deep as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('plugins-populate-deep', running.url, running.token)).toEqual([]);
});
