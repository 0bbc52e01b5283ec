// A plugin content type's lifecycles as v4 runs them: the ones its definition declares, and ones its project's
// extension (src/extensions/<plugin>/strapi-server.js) puts there, since v4 reads them after the extensions.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, startCopy, type RunningApp } from '../../helpers/fixture-app';

const FIXTURE = path.resolve(__dirname, '../../fixtures/strapi4-app');

const EDIT: Record<string, string> = {
  'config/plugins.js': "module.exports = () => ({ memo: { enabled: true, resolve: './src/plugins/memo' } });\n",
  'src/plugins/memo/package.json': JSON.stringify({ name: 'memo', strapi: { kind: 'plugin', name: 'memo' } }),
  'src/plugins/memo/strapi-server.js': `module.exports = {
  contentTypes: {
    note: {
      schema: { kind: 'collectionType', collectionName: 'memo_notes', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        options: { draftAndPublish: false }, attributes: { text: { type: 'string' }, stamp: { type: 'string' } } },
      lifecycles: { beforeCreate(event) { event.params.data.stamp = 'declared'; } },
    },
  },
};
`,
  'src/extensions/memo/strapi-server.js': `module.exports = (plugin) => {
  plugin.contentTypes.note.lifecycles = { beforeCreate(event) { event.params.data.stamp = 'extended'; } };
  return plugin;
};
`,
};

describe('plugin content-type lifecycles', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startCopy(copyProject(FIXTURE, EDIT));
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('runs the lifecycles the extension left on the plugin content type', async () => {
    const entityService = app.app.strapi.entityService as unknown as { create(uid: string, p: unknown): Promise<{ stamp: string }> };
    const note = await entityService.create('plugin::memo.note', { data: { text: 'hi' } });
    expect(note.stamp).toBe('extended');
  });
});
