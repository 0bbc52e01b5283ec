// Relation kinds the fixture app lacks, on the relations test project (test/fixtures/relations-app) with an
// empty database: one-to-one from both sides, many-way, self many-to-many from both sides, one-way
// many-to-one, a relation to users left out for the Public role, nested components with relations and
// max. Every answer must equal what Strapi 4.26.2 answered on the same project (test/golden/relations-kinds.*),
// and the link tables must hold what Strapi's held afterwards.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import { startRelationsApp, type RunningRelationsApp } from '../integration/relations/relations-app';
import { linkState, RELATIONS_APP_LINK_TABLES } from './relations-link-state';

let running: RunningRelationsApp;
beforeAll(async () => {
  running = await startRelationsApp();
});
afterAll(async () => {
  await running?.stop();
});

it('answers every relation kind exactly as Strapi 4.26.2 did, and leaves the same link rows', async () => {
  expect(await goldenProblems('relations-kinds', running.url, running.token)).toEqual([]);
  const expected = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../golden/relations-kinds.links.json'), 'utf8'));
  expect(await linkState(running.app.db, RELATIONS_APP_LINK_TABLES, ['people_components', 'components_thing_boxes_components'])).toEqual(expected);
});
