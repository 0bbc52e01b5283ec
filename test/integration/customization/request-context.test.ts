// strapi.requestContext on the custom-app project: each of many concurrent requests finds its own ctx in a
// service after awaits on the database and timers; writes see it in model lifecycle hooks; nothing outside
// a request sees one. Requests are tracked only when project code mentions requestContext (or
// config/server.js `requestContext` says so): a project that never asks pays nothing for it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSourceUses } from '../../../src/project/source-uses';
import type { RunningApp } from '../../helpers/fixture-app';
import { call, CUSTOM_APP, NO_CRON, startCustomApp } from './custom-app';

describe('tracked requests', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startCustomApp(NO_CRON);
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('gives each of 40 concurrent requests its own ctx, across awaits', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      call(`${running.url}/api/probe/context?tag=${i}&delay=${(i * 7) % 40}`, 'GET', undefined, { 'x-probe': `h${i}` })));
    answers.forEach((a, i) => {
      expect(a.status).toBe(200);
      expect(a.body.data).toMatchObject({ found: true, sameObject: true, query: { tag: String(i) }, header: `h${i}`, mark: 'from route middleware', handler: 'probe.context' });
    });
  });

  it('shows the request to lifecycle hooks of writes, and no request to writes outside one', async () => {
    const created = await call(`${running.url}/api/memos`, 'POST', { data: { title: 'via REST' } });
    expect(created.body.data.attributes.note).toBe('created: POST /api/memos api::memo.memo.create');
    const fromCode = await running.app.strapi.query('api::memo.memo').create({ data: { title: 'from code' } }) as unknown as { note: string };
    expect(fromCode.note).toBe('created: no request');
    expect(running.app.strapi.requestContext.get()).toBeUndefined();
  });
});

it('tracks requests only when project code mentions requestContext, or config/server.js turns it on', async () => {
  expect(projectSourceUses(CUSTOM_APP, 'requestContext')).toBe(true);
  expect(projectSourceUses(path.resolve(__dirname, '../../fixtures/hooks-app'), 'requestContext')).toBe(false);
  const off = await startCustomApp({ ...NO_CRON, 'config/env/test/server.js': 'module.exports = { cron: { enabled: false }, requestContext: false };\n' });
  try {
    expect((await call(`${off.url}/api/probe/context`)).body.data).toEqual({ found: false, sameObject: false });
  } finally {
    await off.stop();
  }
});
