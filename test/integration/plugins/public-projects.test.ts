// What public v4 projects tripped on when started on Tessera as a new user would (issue 21; the projects and what
// each did: test/fixtures/public-projects-app/README.md), reproduced by test/fixtures/public-projects-app on an
// empty database:
// - a plugin whose routes differ only in parameter names (`PUT /tasks/:id` beside `GET /tasks/:slug`, as
//   strapi-plugin-todo's in the official demo app): Tessera refused to start ("Method ... already declared");
// - a plugin content type whose `collectionName` is missing or misplaced (in `info`, as a scheduler plugin writes
//   it): v4's table is `<plugin>_<singularName>`, Tessera made another one and never saw the plugin's rows;
// - `strapi.contentTypes` without `apiName`, `connection` and `__schema__`: a calendar plugin that lists the
//   project's types by `apiName` listed none.
// Every answer must equal what Strapi 4.26.2 answered on the same project (test/golden/public-projects.*), and the
// tables must be the ones it created (test/golden/public-projects.db-schema.json, from its strapi_database_schema).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProjectCopy, type RunningApp } from '../../helpers/fixture-app';
import { GOLDEN_DIR, goldenProblems } from '../../helpers/golden';

const PUBLIC_PROJECTS_APP = path.resolve(__dirname, '../../fixtures/public-projects-app');

interface V4Table { name: string }

let running: RunningApp;
beforeAll(async () => {
  running = await startProjectCopy(PUBLIC_PROJECTS_APP);
});
afterAll(async () => {
  await running?.stop();
});

it('starts and answers the plugin routes, custom field and content-type listing exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('public-projects', running.url, running.token)).toEqual([]);
});

it('names the plugin and API tables as Strapi 4.26.2 does when their schema names none', async () => {
  const v4 = JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, 'public-projects.db-schema.json'), 'utf8')) as { tables: V4Table[] };
  const [row] = await running.app.db.all<{ schema: string }>('SELECT schema FROM strapi_database_schema');
  const tables = (JSON.parse(row.schema) as { tables: V4Table[] }).tables;
  for (const table of v4.tables) expect(tables.find((t) => t.name === table.name)).toEqual(table);
  // the names Tessera made up before: the plural, and the plugin's misplaced `info.collectionName`
  const made = [...(await running.app.db.introspect()).keys()].filter((name) => ['events', 'slots', 'agenda_slots'].includes(name));
  expect(made).toEqual([]);
});
