// The golden request lists (recorded from real Strapi 4.26.2) replayed with both compile targets: writes
// go through HTTP as recorded, and every read along the way is answered by the JavaScript reference and
// by the JSON target from the same database state, which must give the same response.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFixtureApp, startProjectCopy, type RunningApp } from '../../helpers/fixture-app';
import { startRelationsApp, type RunningRelationsApp } from '../relations/relations-app';
import { replayComparing, targetsFor } from './targets';

const GOLDEN = path.resolve(__dirname, '../../golden');
const requests = (name: string) => JSON.parse(fs.readFileSync(path.join(GOLDEN, `${name}.requests.json`), 'utf8'));

/** populating a file's `related` (a morph relation) is left to the JavaScript path */
const FILE_RELATED = /(cover|avatar|shareImage|image|images)(\]\[populate\]=\*|\.related|\]\[populate\]\[related\])/;

const running: Array<RunningApp | RunningRelationsApp> = [];
afterAll(async () => {
  for (const r of running) await r.stop();
});

describe.each([
  ['fixture app', () => startFixtureApp(true), ['populate-forms', 'crud', 'draft-articles', 'query-deep', 'query-fields', 'query-operators', 'query-sort-pagination', 'relations-components', 'relations-deviations', 'relations-writes', 'i18n-pages', 'i18n-locale-conditions']],
  ['relations app', () => startRelationsApp(), ['relations-kinds']],
  ['all-types app', () => startProjectCopy(path.resolve(__dirname, '../../fixtures/all-types')), ['types']],
] as const)('%s', (_name, start, lists) => {
  it.each(lists)('%s: every read gives the same response through both targets', async (list) => {
    const app = await start();
    running.push(app);
    const t = targetsFor(app.app.db, app.app.model, app.app.project.config.get<string[]>('api.responses.privateAttributes', []));
    const seen = await replayComparing(app.app, t, requests(list), app.token);
    expect(seen.compared.length).toBeGreaterThan(0);
    for (const url of seen['js only']) expect(url).toMatch(FILE_RELATED);
  });
});
