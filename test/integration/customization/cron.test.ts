// Cron (config/server.js `cron.enabled` and `cron.tasks` from config/cron-tasks.js, strapi.cron) on the
// custom-app project: both task forms run every second with `({ strapi }, fireDate)`, outside any request;
// `enabled: false` runs nothing; add/remove/stop/start; a failing task does not stop the server; two servers
// on one database run each tick once (the lock in strapi_core_store_settings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import type { RunningApp } from '../../helpers/fixture-app';
import { call, eventually, NO_CRON, sleep, startCustomApp } from './custom-app';

const runs = async (url: string) => (await call(`${url}/api/probe/cron/runs`)).body.data;

describe('cron enabled', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startCustomApp();
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('runs both task forms each second, as v4 calls them, outside any request', async () => {
    const seen = await eventually(async () => {
      const r = await runs(running.url);
      return r.everySecond >= 2 && r.ruleKeyed >= 2 ? r : undefined;
    }, 4_000, 'two runs of each every-second task');
    expect(seen).toMatchObject({ newYear: 0, thisIsTask: true, sawRequestContext: false, ruleKeyedStrapi: 'function' });
    // the fire date the task got is the scheduled second
    expect(seen.ticks.every((at: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/.test(at))).toBe(true);
  });

  it('adds and removes jobs while running; a job added during a request does not run inside it', async () => {
    const added = await call(`${running.url}/api/probe/cron`, 'POST', { name: 'often', rule: '* * * * * *' });
    expect(added.body.data.jobs).toEqual(['everySecond', null, 'newYearInParis', 'often']);
    const seen = await eventually(async () => {
      const r = await runs(running.url);
      return r.added >= 1 ? r : undefined;
    }, 3_000, 'a run of the added job');
    expect(seen.addedSawRequest).toBe(false);
    const removed = await call(`${running.url}/api/probe/cron/often`, 'DELETE');
    expect(removed.body.data.jobs).toEqual(['everySecond', null, 'newYearInParis']);
    const after = (await runs(running.url)).added;
    await sleep(1_300);
    expect((await runs(running.url)).added).toBe(after);
  });

  it('stop() ends the runs and start() resumes them', async () => {
    const { cron } = running.app.strapi;
    cron.stop();
    await sleep(100); // a run that had started finishes
    const before = (await runs(running.url)).ticks.length;
    await sleep(1_300);
    expect((await runs(running.url)).ticks.length).toBe(before);
    cron.start();
    await eventually(async () => (await runs(running.url)).ticks.length > before, 3_000, 'a run after start()');
  });

  it('keeps serving when a task throws or rejects, and refuses a task without a function', async () => {
    const { cron } = running.app.strapi;
    cron.add({
      throws: { task: () => { throw new Error('task failed on purpose'); }, options: { rule: '* * * * * *' } },
      rejects: { task: async () => { throw new Error('task rejected on purpose'); }, options: { rule: '* * * * * *' } },
    });
    const before = (await runs(running.url)).everySecond;
    await eventually(async () => (await runs(running.url)).everySecond >= before + 2, 4_000, 'other tasks go on');
    cron.remove('throws').remove('rejects');
    expect(() => cron.add({ broken: { options: { rule: '* * * * * *' } } } as never)).toThrow('Could not schedule a cron job for "broken": no function found.');
    expect(() => cron.remove('')).toThrow('You must provide a name to remove a cron job.');
  });
});

it('runs nothing when cron.enabled is false', async () => {
  const running = await startCustomApp(NO_CRON);
  try {
    await sleep(1_500);
    expect(await runs(running.url)).toMatchObject({ everySecond: 0, ruleKeyed: 0, ticks: [] });
    expect((await call(`${running.url}/api/probe/cron`)).body.data.jobs).toEqual([]);
  } finally {
    await running.stop();
  }
});

it('runs each tick once when two servers share one database', async () => {
  const first = await startCustomApp();
  let second: Tessera | undefined;
  try {
    second = await createTessera({ dir: first.dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
    const secondUrl = await second.listen({ host: '127.0.0.1', port: 0 });
    // both schedule the job; wait for ticks claimed while both were running
    expect((await call(`${secondUrl}/api/probe/cron`)).body.data.jobs.map((j: { name: string }) => j.name)).toContain('everySecond');
    const startedBoth = Date.now();
    const ticks = await eventually(async () => {
      const t: string[] = (await runs(first.url)).ticks;
      return t.filter((at) => Date.parse(at) >= startedBoth).length >= 3 ? t : undefined;
    }, 6_000, 'three ticks with both servers running');
    expect(new Set(ticks).size).toBe(ticks.length);
    // each server ran some of them or none, never the same one: the two counts add up to the rows
    await second.close();
    second = undefined;
    first.app.strapi.cron.stop();
    await sleep(200);
    const rows = (await runs(first.url)).ticks;
    expect(new Set(rows).size).toBe(rows.length);
  } finally {
    await second?.close();
    await first.stop();
  }
});
