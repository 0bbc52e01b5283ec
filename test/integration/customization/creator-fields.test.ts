// options.populateCreatorFields on the custom-app project: createdBy/updatedBy answer the same through both
// read paths (the JSON one SQLite writes and the JavaScript one, rest.jsonReads: false), the admin user's
// private attributes (email, password, tokens, roles, isActive, blocked) never appear however the query
// asks, the Content API cannot set them, and a type without the option neither shows nor lets anyone name them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../../helpers/fixture-app';
import { call, NO_CRON, startCustomApp } from './custom-app';

const SECRET = { email: 'ada@example.com', password: '$2a$10$abcdefghijklmnopqrstuvCHvS3f8d1jzq1Zm0v1lXq3kfvV5d5hW', resetPasswordToken: 'reset-token-secret-1', registrationToken: 'registration-secret-1' };

const READS = [
  '/api/memos?populate=createdBy&fields[0]=title',
  '/api/memos?populate[createdBy][fields][0]=firstname&populate[updatedBy][fields][0]=lastname&fields[0]=title',
  '/api/memos?populate[createdBy][populate]=*&populate[updatedBy]=*&fields[0]=title&sort=createdBy.firstname:desc',
  '/api/memos?filters[updatedBy][lastname][$eq]=Hopper&populate=updatedBy&fields[0]=title',
  '/api/memos/1?populate=*&fields[0]=title',
  '/api/plains?populate[memos][populate][createdBy][fields][0]=username&fields[0]=title',
  '/api/board?populate=*&fields[0]=headline',
];

/** the creator's own timestamps differ between two servers: left out */
function withoutTimestamps(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutTimestamps);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'createdAt' && k !== 'updatedAt').map(([k, x]) => [k, withoutTimestamps(x)]));
  return v;
}

describe('types with populateCreatorFields', () => {
  let json: RunningApp;
  let js: RunningApp;
  beforeAll(async () => {
    [json, js] = await Promise.all([
      startCustomApp(NO_CRON),
      startCustomApp({ ...NO_CRON, 'config/api.js': 'module.exports = { rest: { defaultLimit: 25, maxLimit: 100, withCount: true, jsonReads: false } };\n' }),
    ]);
    for (const app of [json, js]) await app.app.strapi.query('admin::user').update({ where: { id: 1 }, data: { ...SECRET, isActive: true, blocked: false } });
  });
  afterAll(async () => {
    await Promise.all([json?.stop(), js?.stop()]);
  });

  it('answers the same through the JSON and the JavaScript read paths', async () => {
    for (const url of READS) {
      const [a, b] = await Promise.all([call(json.url + url), call(js.url + url)]);
      expect(a.status, url).toBe(200);
      expect(withoutTimestamps(a.body), url).toEqual(withoutTimestamps(b.body));
    }
    const first = (await call(`${json.url}/api/memos/1?populate=createdBy&fields[0]=title`)).body.data.attributes.createdBy.data;
    expect(first).toEqual({ id: 1, attributes: expect.objectContaining({ firstname: 'Ada', lastname: 'Lovelace', username: 'ada', preferedLanguage: 'en' }) });
  });

  it("never shows the admin user's private attributes", async () => {
    for (const app of [json, js]) {
      for (const url of [...READS, '/api/memos?populate[createdBy][populate][roles]=true', '/api/memos?populate=*']) {
        const res = await fetch(app.url + url);
        const text = await res.text();
        for (const secret of Object.values(SECRET)) expect(text, url).not.toContain(secret);
        expect(text, url).not.toMatch(/"(email|password|resetPasswordToken|registrationToken|isActive|blocked|roles)"/);
      }
      for (const url of ['/api/memos?populate[createdBy][fields][0]=email', '/api/memos?filters[createdBy][password][$null]=false', '/api/memos?sort=createdBy.email']) {
        expect((await call(app.url + url)).status, url).toBe(400);
      }
    }
  });

  it('cannot set creators through the Content API', async () => {
    const created = await call(`${json.url}/api/memos?populate=createdBy,updatedBy`, 'POST', { data: { title: 'mine', createdBy: 1, updatedBy: { id: 2 } } });
    expect(created.status).toBe(200);
    expect(created.body.data.attributes).toMatchObject({ createdBy: { data: null }, updatedBy: { data: null } });
    const updated = await call(`${json.url}/api/memos/2?populate=createdBy`, 'PUT', { data: { createdBy: 1 } });
    expect(updated.body.data.attributes.createdBy.data.id).toBe(2);
  });
});

it('keeps creators private where the option is off', async () => {
  const running = await startCustomApp(NO_CRON);
  try {
    const list = await call(`${running.url}/api/plains?populate=*`);
    expect(list.body.data[0].attributes).not.toHaveProperty('createdBy');
    expect((await call(`${running.url}/api/plains?filters[createdBy][id]=1`)).body.error).toMatchObject({ status: 400, message: 'Invalid parameter createdBy' });
    // turned on by the schema only: the same project with the option removed from memo hides them there too
  } finally {
    await running.stop();
  }
  const off = await startCustomApp({ ...NO_CRON, 'src/api/memo/content-types/memo/schema.json': JSON.stringify({
    kind: 'collectionType', collectionName: 'memos', info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' }, note: { type: 'string' }, plain: { type: 'relation', relation: 'manyToOne', target: 'api::plain.plain', inversedBy: 'memos' } },
  }) });
  try {
    const list = await call(`${off.url}/api/memos?populate=createdBy`);
    expect(list.status).toBe(200);
    expect(list.body.data[0].attributes).not.toHaveProperty('createdBy');
    expect((await call(`${off.url}/api/memos?sort=createdBy.firstname`)).status).toBe(400);
  } finally {
    await off.stop();
  }
});
