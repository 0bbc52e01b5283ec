// Relation writes on the fixture app: the fixture's full article, every relation operation and position
// form on both sides of each relation kind, media, and bad input. Every answer must equal what Strapi
// 4.26.2 answered (test/golden/relations-writes.*), apart from the listed deviations; and afterwards the
// link tables must hold what Strapi's held after the same requests (order columns on both sides included).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';
import { linkState } from './relations-link-state';

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureApp(true);
});
afterAll(async () => {
  await running?.stop();
});

it('answers the relation writes exactly as Strapi 4.26.2 did, and leaves the same link rows', async () => {
  expect(await goldenProblems('relations-writes', running.url, running.token)).toEqual([]);
  const expected = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../golden/relations-writes.links.json'), 'utf8'));
  expect(await linkState(running.app.db)).toEqual(expected);
});
