// Bad relation, component and populate input: each a v4-style 400 in the v4 envelope, and the database
// exactly as before (every row of every table), even when the same request also carries valid changes.
import type { Tessera } from '../../../src/core/tessera';
import type { Database } from '../../../src/storage/dialect';
import { dbFingerprint } from '../../helpers/db-fingerprint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { startRelationsApp, type RunningRelationsApp } from './relations-app';

/** every table but the tokens' (a token's use records lastUsedAt) */
const fingerprint = (db: Database): Promise<string> => dbFingerprint(db, ['strapi_api_tokens']);

interface Case {
  name: string;
  method?: 'POST' | 'PUT' | 'GET';
  url: string;
  data?: unknown;
  message: string | RegExp;
  errorName?: string;
}

async function expectRefused(base: { url: string; token: string; app: Tessera }, c: Case): Promise<void> {
  const before = await fingerprint(base.app.db);
  const res = await fetch(base.url + c.url, {
    method: c.method ?? 'PUT',
    headers: { authorization: `Bearer ${base.token}`, 'content-type': 'application/json' },
    body: c.data === undefined ? undefined : JSON.stringify({ data: c.data }),
  });
  const body = (await res.json()) as { data: unknown; error: { status: number; name: string; message: string; details: unknown } };
  expect(res.status, c.name).toBe(400);
  expect(body.data).toBeNull();
  expect(body.error.status).toBe(400);
  expect(body.error.name).toBe(c.errorName ?? 'ValidationError');
  if (typeof c.message === 'string') expect(body.error.message).toBe(c.message);
  else expect(body.error.message).toMatch(c.message);
  expect(body.error.details).toBeTypeOf('object');
  expect(await fingerprint(base.app.db), `${c.name}: nothing written`).toBe(before);
}

const A = '/api/articles/1';
const fixtureCases: Case[] = [
  { name: 'connect not an array', url: A, data: { categories: { connect: '3' } }, message: 'Invalid relations' },
  { name: 'item without id', url: A, data: { categories: [{ foo: 1 }] }, message: 'Invalid relations' },
  { name: 'boolean value', url: A, data: { categories: true }, message: 'Invalid relations' },
  { name: 'boolean item', url: A, data: { categories: [true] }, message: 'Invalid relations' },
  { name: 'unknown operation', url: A, data: { categories: { add: [1] } }, message: 'Invalid relations' },
  { name: 'object id', url: A, data: { author: { id: { id: 2 } } }, message: 'Invalid relations' },
  { name: 'set with connect', url: A, data: { categories: { set: [1], connect: [2] } }, message: /"set" cannot be combined/ },
  { name: 'missing target', url: A, data: { categories: [2, 999] }, message: '1 relation(s) of type api::category.category associated with this entity do not exist' },
  { name: 'missing media', url: A, data: { gallery: [1, 998, 999] }, message: '2 relation(s) of type plugin::upload.file associated with this entity do not exist' },
  { name: 'missing target inside a component', url: A, data: { seo: { metaTitle: 'x', shareImage: 999 } }, message: '1 relation(s) of type plugin::upload.file associated with this entity do not exist' },
  { name: 'position before an id not connected', url: A, data: { categories: { connect: [{ id: 2, position: { before: 99 } }] } }, message: 'There was a problem connecting relation with id 2 at position {"before":99}. The relation with id 99 needs to be connected first.' },
  { name: 'position after an id being disconnected', url: A, data: { categories: { disconnect: [4], connect: [{ id: 2, position: { after: 4 } }] } }, message: 'There was a problem connecting relation with id 2 at position {"after":4}. The relation with id 4 needs to be connected first.' },
  { name: 'position on create names an id not connected', method: 'POST', url: '/api/articles', data: { title: 'x', categories: { connect: [{ id: 2, position: { after: 3 } }] } }, message: /The relation with id 3 needs to be connected first/ },
  { name: 'duplicate connect', url: A, data: { categories: { connect: [{ id: 2, position: { start: true } }, { id: 2 }] } }, message: 'The relation with id 2 is already connected. You cannot connect the same relation twice.' },
  { name: 'circular positions', url: A, data: { categories: { connect: [{ id: 2, position: { before: 3 } }, { id: 3, position: { after: 2 } }] } }, message: /circular reference/ },
  { name: 'unknown __component', url: A, data: { blocks: [{ __component: 'blocks.nope', body: 'x' }] }, message: '2 errors occurred' },
  { name: 'missing __component', url: A, data: { blocks: [{ body: 'x' }] }, message: '2 errors occurred' },
  { name: 'component id of another entry', url: A, data: { links: [{ id: 2, label: 'x' }] }, message: 'Some of the provided components in links are not related to the entity', errorName: 'ApplicationError' },
  { name: 'zone item id of another entry', url: A, data: { blocks: [{ id: 2, __component: 'blocks.text', body: 'x' }] }, message: 'Some of the provided components in blocks are not related to the entity', errorName: 'Error' },
  // valid changes in the same request are not written either (v4 keeps the component changes made before the failure)
  { name: 'valid components with a bad relation', url: A, data: { title: 'changed', seo: { metaTitle: 'changed' }, links: [{ label: 'new' }], blocks: [{ __component: 'blocks.quote', text: 'new' }], categories: { connect: [{ id: 2, position: { before: 99 } }] } }, message: /needs to be connected first/ },
  { name: 'valid relations with a bad component id', url: A, data: { categories: [1, 2], author: 3, links: [{ id: 9999 }] }, message: /not related to the entity/, errorName: 'ApplicationError' },
  { name: 'over-deep populate on a write', url: `${A}?populate=${'author.articles.'.repeat(6)}author`, data: { title: 'changed' }, message: /deeper than 10 levels/ },
  { name: 'cyclic populate beyond the depth bound', method: 'GET', url: `${A}?populate=${'categories.articles.'.repeat(6)}author`, message: /deeper than 10 levels/ },
];

describe('fixture app', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startFixtureApp(true);
    await fetch(`${running.url}/api/articles?pagination[pageSize]=1`, { headers: { authorization: `Bearer ${running.token}` } });
  });
  afterAll(async () => {
    await running?.stop();
  });
  it.each(fixtureCases)('$name', async (c) => {
    await expectRefused(running, c);
  });
  it('lists every component of the project for an unknown __component, and the relations issue last', async () => {
    const res = await fetch(`${running.url}${A}`, {
      method: 'PUT', headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { blocks: [{ __component: 'blocks.nope' }] } }),
    });
    const { error } = (await res.json()) as { error: { details: { errors: Array<{ path: string[]; message: string }> } } };
    expect(error.details.errors).toEqual([
      { path: ['blocks', '0', '__component'], message: 'blocks[0].__component must be one of the following values: blocks.gallery, blocks.quote, blocks.text, shared.link, shared.seo', name: 'ValidationError' },
      { path: [], message: 'Invalid relations', name: 'ValidationError' },
    ]);
  });
});

describe('relations test app', () => {
  let running: RunningRelationsApp;
  beforeAll(async () => {
    running = await startRelationsApp();
    const post = (url: string, data: unknown) => fetch(running.url + url, { method: 'POST', headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
    await post('/api/tags', { label: 'red' });
    await post('/api/people', { name: 'Ann', boxes: [{ title: 'b', inner: { note: 'n' } }] });
  });
  afterAll(async () => {
    await running?.stop();
  });
  const P = '/api/people/1';
  it.each<Case>([
    { name: 'repeatable component over max', url: P, data: { boxes: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] }, message: 'boxes field must have less than or equal to 2 items' },
    { name: 'dynamic zone over max', url: P, data: { parts: [{ __component: 'thing.inner' }, { __component: 'thing.inner' }, { __component: 'thing.inner' }] }, message: 'parts field must have less than or equal to 2 items' },
    { name: 'over max on create', method: 'POST', url: '/api/people', data: { name: 'x', boxes: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] }, message: 'boxes field must have less than or equal to 2 items' },
    { name: 'nested component id of another parent', url: P, data: { boxes: [{ id: 1, title: 'b', inner: { id: 99 } }] }, message: 'Some of the provided components in inner are not related to the entity', errorName: 'ApplicationError' },
    { name: 'relation inside a nested component missing', url: P, data: { boxes: [{ title: 'b', extras: [{ tag: 1 }, { tag: 7 }] }] }, message: '1 relation(s) of type api::tag.tag associated with this entity do not exist' },
    { name: 'zone item of another component with a bad field', url: P, data: { parts: [{ __component: 'thing.inner', note: 5 }] }, message: /parts\[0\]\.note must be a `string` type/ },
  ])('$name', async (c) => {
    await expectRefused(running, c);
  });
});
