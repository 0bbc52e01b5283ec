// strapi-plugin-transformer 2.1.1 beyond its goldens (test/compat/plugins-transformer.golden.test.ts): its config
// validator is async, and v4 calls validators without awaiting them, so on Strapi 4.26.2 an invalid setting ends
// the process with an unhandled rejection (yup's raw error, after the config was accepted). Tessera refuses to
// start instead, naming the plugin and the setting.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';
import { startPluginProject } from './plugin-project-app';

const PLUGINS_CONFIG = fs.readFileSync(path.join(PLUGIN_PROJECTS_DIR, 'transformer-app/config/plugins.js'), 'utf8');

it('refuses to start on a setting the plugin validator rejects, naming the plugin and the setting', async () => {
  const invalid = PLUGINS_CONFIG.replace('removeAttributesKey: true', "removeAttributesKey: 'maybe'");
  expect(invalid).not.toBe(PLUGINS_CONFIG);
  const outcome = await startPluginProject('transformer-app', { edit: { 'config/plugins.js': invalid } }).then(
    async (app) => {
      await app.stop();
      return 'started';
    },
    (err: Error) => err.message,
  );
  expect(outcome).toMatch(/transformer[\s\S]*responseTransforms\.removeAttributesKey must be a `boolean` type/);
});
