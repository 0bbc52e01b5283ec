// Components and dynamic zones on the fixture app: create, update by id, create without id, delete by
// omission, null, refusals (ids of other entries, wrong shapes), single types and delete. Every answer must
// equal what Strapi 4.26.2 answered (test/golden/relations-components.*), apart from the listed deviations;
// afterwards every component field holds the same items in the same order as Strapi's database did.
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

it('answers the component writes exactly as Strapi 4.26.2 did, and leaves the same link rows', async () => {
  expect(await goldenProblems('relations-components', running.url, running.token)).toEqual([]);
  const expected = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../golden/relations-components.links.json'), 'utf8'));
  expect(await linkState(running.app.db)).toEqual(expected);
});
