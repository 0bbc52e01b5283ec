// Issue 21 part 5: what a project enables that Tessera does not run is said once, at start, in one warning;
// and an extension of the upload plugin (whose routes Tessera serves from its v4 module) is applied, as v4 does.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoggedProjectCopy, type LoggedApp } from '../../helpers/logged-app';

const FIXTURE = path.resolve(__dirname, '../../fixtures/strapi4-app');

const PLUGINS_JS = `module.exports = () => ({
  'admin-only': { enabled: true, resolve: './src/plugins/admin-only' },
  broken: { enabled: true, resolve: './src/plugins/broken' },
  ghost: { enabled: true },
  sanitizing: { enabled: true, resolve: './src/plugins/sanitizing' },
  switched: { enabled: false, resolve: './src/plugins/broken' },
});
`;

const EDIT: Record<string, string> = {
  'config/plugins.js': PLUGINS_JS,
  'src/plugins/admin-only/package.json': JSON.stringify({ name: 'admin-only', strapi: { kind: 'plugin', name: 'admin-only' } }),
  'src/plugins/admin-only/strapi-admin.js': 'module.exports = {};\n',
  'src/plugins/broken/package.json': JSON.stringify({ name: 'broken', strapi: { kind: 'plugin', name: 'broken' } }),
  'src/plugins/broken/strapi-server.js': "module.exports = require('a-package-this-project-does-not-have');\n",
  'src/plugins/sanitizing/package.json': JSON.stringify({ name: 'sanitizing', strapi: { kind: 'plugin', name: 'sanitizing' } }),
  // its config validator uses the global strapi (v4's exists while plugins load: config and log)
  'src/plugins/sanitizing/strapi-server.js': `module.exports = {
  config: { default: {}, validator() { strapi.log.info('validating on port ' + strapi.config.get('server.port')); } },
  register({ strapi }) { strapi.sanitizers.add('content-api.output', (data) => data); },
};
`,
  // closes DELETE /api/upload/files/:id (served from the plugin's module: applied)
  'src/extensions/upload/strapi-server.js': `module.exports = (plugin) => {
  const api = plugin.routes['content-api'];
  api.routes = api.routes.filter((r) => !(r.method === 'DELETE' && r.path === '/files/:id'));
  return plugin;
};
`,
  // closes GET /api/i18n/locales (served from i18n's module: applied)
  'src/extensions/i18n/strapi-server.js': `module.exports = (plugin) => {
  plugin.routes['content-api'].routes = [];
  return plugin;
};
`,
  // graphql's endpoint is Tessera's own: a change to the plugin's routes is not applied, and said so
  'src/extensions/graphql/strapi-server.js': `module.exports = (plugin) => {
  plugin.routes = { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/x', handler: () => 1 }] } };
  return plugin;
};
`,
};

describe('start-up says what it does not run', () => {
  let app: LoggedApp;
  beforeAll(async () => {
    app = await startLoggedProjectCopy(FIXTURE, EDIT);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('lists every plugin it does not run, and why, in one warning', () => {
    const warnings = app.lines.filter((l) => l.level === 40 && l.msg.startsWith('not run by Tessera'));
    expect(warnings).toHaveLength(1);
    const text = warnings[0].msg;
    expect(text).toContain('admin-only: admin panel only (no strapi-server.js)');
    expect(text).toMatch(/broken: could not be loaded \(.*a-package-this-project-does-not-have/);
    expect(text).toContain('ghost: enabled in config/plugins.js but not installed');
    expect(text).toContain('src/extensions/graphql/strapi-server.js changes the routes or controllers of graphql');
    expect(text).not.toContain('extensions/i18n');
    expect(text).toContain('sanitizers content-api.output added by project or plugin code: kept, not run');
    // a disabled plugin is not loaded, so not listed
    expect(text).not.toContain('switched');
  });

  it('starts and serves the Content API', async () => {
    expect((await fetch(`${app.url}/api/articles`)).status).toBe(200);
    // the i18n route the extension removed is not served; graphql's change is not applied
    expect((await fetch(`${app.url}/api/i18n/locales`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/graphql/x`)).status).toBe(404);
  });

  it('applies the upload extension: the closed route answers as an unknown method', async () => {
    const res = await fetch(`${app.url}/api/upload/files/1`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect((await fetch(`${app.url}/api/upload/files`)).status).toBe(200);
  });
});
