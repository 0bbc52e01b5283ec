// Issue #20 part 7 (#13 part 7): through POST/PUT /api/:plural a caller links entries only of types it may
// `find`. v4's input sanitizer (sanitize.contentAPI.input, run by the core controllers' `sanitizeInput`)
// silently drops every relation whose target the caller may not find, in every value form and inside
// components and dynamic zones; the rest of the entry is written. Recorded on real Strapi 4.26.2 serving
// test/fixtures/relations-app with the same roles: every expectation below is what it did. Project code
// (`strapi.service(uid)`, `strapi.entityService`) is trusted and not sanitized, as in v4.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qs from 'qs';
import { startRelationsApp, type RunningRelationsApp } from '../integration/relations/relations-app';

const PERSON = 'api::person.person';
const PERSON_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'].map((a) => `${PERSON}.${a}`);

let t: RunningRelationsApp;
/** caller name -> bearer (null: the Public role) */
const callers: Record<string, string | null> = {};
let mentorId: number;
let tag1: number;
let tag2: number;
let userId: number;

async function send(method: string, url: string, bearer: string | null, data?: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(t.url + url, { method, headers, body: data === undefined ? undefined : JSON.stringify({ data }) });
  return { status: res.status, body: await res.json() as any };
}

const POPULATE = qs.stringify({
  populate: {
    tags: true, account: true, mentor: true,
    boxes: { populate: { inner: { populate: ['tag'] }, extras: { populate: ['tag'] } } },
    parts: {
      on: {
        'thing.inner': { populate: ['tag'] },
        'thing.box': { populate: { inner: { populate: ['tag'] }, extras: { populate: ['tag'] } } },
      },
    },
  },
});

type Ids = number[] | number | null;
const ids = (d: any): Ids => (d == null ? null : Array.isArray(d) ? d.map((x) => x.id) : d.id);
const innerState = (c: any) => c && { tag: ids(c.tag?.data) };

/** every link of a person, read back with the full-access token */
async function linksOf(id: number): Promise<Links> {
  const r = await send('GET', `/api/people/${id}?${POPULATE}`, t.token);
  expect(r.status).toBe(200);
  const a = r.body.data.attributes;
  return {
    tags: ids(a.tags.data), account: ids(a.account.data), mentor: ids(a.mentor.data),
    boxes: a.boxes.map((b: any) => ({ inner: innerState(b.inner), extras: b.extras.map(innerState) })),
    parts: a.parts.map((p: any) => (p.__component === 'thing.inner'
      ? { c: 'inner', tag: ids(p.tag?.data) }
      : { c: 'box', inner: innerState(p.inner), extras: p.extras.map(innerState) })),
  };
}
interface Links { tags: Ids; account: Ids; mentor: Ids; boxes: unknown[]; parts: unknown[] }
const NONE: Links = { tags: [], account: null, mentor: null, boxes: [], parts: [] };

beforeAll(async () => {
  t = await startRelationsApp();
  const q = t.app.query;
  tag1 = (await q('api::tag.tag').create({ data: { label: 'T1' } })).id as number;
  tag2 = (await q('api::tag.tag').create({ data: { label: 'T2' } })).id as number;
  mentorId = (await q(PERSON).create({ data: { name: 'Mentor' } })).id as number;
  const up = (name: string) => t.app.strapi.plugin('users-permissions').service(name) as any;
  userId = (await up('user').add({ username: 'linked', email: 'linked@example.com', password: 'Linked-pass-1', provider: 'local', confirmed: true, role: 1 })).id;

  // Public: people only (the project's bootstrap also gave it tags; take `find` away, keep `findOne`: v4 asks `find`)
  const perms = q('plugin::users-permissions.permission');
  const publicRole = await q('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  await perms.deleteMany({ where: { action: 'api::tag.tag.find', role: { id: publicRole!.id } } });
  callers.public = null;

  // a users-permissions role that may write people but read neither tags nor users
  const writer = await q('plugin::users-permissions.role').create({ data: { name: 'Writer', description: 'people only', type: 'writer' } });
  for (const action of PERSON_ACTIONS) await perms.create({ data: { action, role: writer.id } });
  const writerUser = await up('user').add({ username: 'writer', email: 'writer@example.com', password: 'Writer-pass-1', provider: 'local', confirmed: true, role: writer.id });
  callers.role = up('jwt').issue({ id: writerUser.id }) as string;

  // a custom API token with the same people actions (and tags' findOne, which is not `find`)
  const tokens = t.app.strapi.service('admin::api-token') as any;
  callers.token = (await tokens.create({ name: 'people-writer', description: '', type: 'custom', lifespan: null, permissions: [...PERSON_ACTIONS, 'api::tag.tag.findOne'] })).accessKey;
});
afterAll(async () => {
  await t?.stop();
});

/** [form, data, what the full-access token links with it (real Strapi's answer)] */
const CREATES: Array<[string, () => Record<string, unknown>, () => Partial<Links>]> = [
  ['an id (to-one, to users)', () => ({ account: userId }), () => ({ account: userId })],
  ['a list of ids', () => ({ tags: [tag1, tag2] }), () => ({ tags: [tag1, tag2] })],
  ['one id on a to-many', () => ({ tags: tag1 }), () => ({ tags: [tag1] })],
  ['object forms {id}', () => ({ tags: [{ id: tag1 }], account: { id: userId } }), () => ({ tags: [tag1], account: userId })],
  ['connect with ids', () => ({ tags: { connect: [tag1] }, account: { connect: [userId] } }), () => ({ tags: [tag1], account: userId })],
  ['connect with objects and a position', () => ({ tags: { connect: [{ id: tag1, position: { end: true } }] } }), () => ({ tags: [tag1] })],
  ['set', () => ({ tags: { set: [{ id: tag2 }] }, account: { set: [userId] } }), () => ({ tags: [tag2], account: userId })],
  ['inside components', () => ({ boxes: [{ title: 'b', inner: { tag: tag1 }, extras: [{ tag: { connect: [tag2] } }] }] }),
    () => ({ boxes: [{ inner: { tag: tag1 }, extras: [{ tag: tag2 }] }] })],
  ['inside dynamic-zone items', () => ({ parts: [{ __component: 'thing.inner', tag: tag1 }, { __component: 'thing.box', title: 'x', inner: { tag: [tag2] }, extras: [{ tag: { set: [tag1] } }] }] }),
    () => ({ parts: [{ c: 'inner', tag: tag1 }, { c: 'box', inner: { tag: tag2 }, extras: [{ tag: tag1 }] }] })],
];
/** what a caller without `find` on tags and users keeps of the same bodies: the entry, no such link */
const DROPPED: Record<string, Partial<Links>> = {
  'inside components': { boxes: [{ inner: { tag: null }, extras: [{ tag: null }] }] },
  'inside dynamic-zone items': { parts: [{ c: 'inner', tag: null }, { c: 'box', inner: { tag: null }, extras: [{ tag: null }] }] },
};

describe.each(['public', 'role', 'token'])('create as a caller that may not find the target (%s)', (who) => {
  it.each(CREATES)('%s: the entry is written, the relation is not', async (form, data) => {
    const r = await send('POST', '/api/people', callers[who], { name: `${form} ${who}`, ...data() });
    expect(r.status).toBe(200);
    expect(await linksOf(r.body.data.id)).toEqual({ ...NONE, ...(DROPPED[form] ?? {}) });
  });

  it('a readable relation in the same body is written', async () => {
    const r = await send('POST', '/api/people', callers[who], { name: `mixed ${who}`, mentor: mentorId, tags: [tag1], account: userId });
    expect(r.status).toBe(200);
    expect(await linksOf(r.body.data.id)).toEqual({ ...NONE, mentor: mentorId });
  });

  it('ids of an unreadable type are dropped before they are checked: no 400 telling which ids exist', async () => {
    const r = await send('POST', '/api/people', callers[who], { name: `ghost ${who}`, tags: [999], account: 999 });
    expect(r.status).toBe(200);
    expect(await linksOf(r.body.data.id)).toEqual(NONE);
  });
});

describe('the same bodies as the full-access token (the forms do link when allowed)', () => {
  it.each(CREATES)('%s', async (form, data, linked) => {
    const r = await send('POST', '/api/people', t.token, { name: `${form} full`, ...data() });
    expect(r.status).toBe(200);
    expect(await linksOf(r.body.data.id)).toEqual({ ...NONE, ...linked() });
  });
});

describe.each(['public', 'role', 'token'])('update as a caller that may not find the target (%s)', (who) => {
  /** an entry linked everywhere, written by trusted project code */
  const seed = async () => {
    const created = await (t.app.strapi.service(PERSON) as any).create({
      data: { name: 'seed', tags: [tag1], account: userId, boxes: [{ title: 'b', inner: { tag: tag1 }, extras: [{ tag: tag1 }] }], parts: [{ __component: 'thing.inner', tag: tag1 }] },
    }) as { id: number };
    return { id: created.id, before: await linksOf(created.id) };
  };
  const UPDATES: Array<[string, () => Record<string, unknown>]> = [
    ['an empty list', () => ({ tags: [] })],
    ['null', () => ({ tags: null, account: null })],
    ['disconnect', () => ({ tags: { disconnect: [tag1] }, account: { disconnect: [userId] } })],
    ['set to nothing', () => ({ tags: { set: [] }, account: { set: [] } })],
    ['connect another', () => ({ tags: { connect: [tag2] } })],
    ['a new list', () => ({ tags: [{ id: tag2 }], account: { id: userId } })],
  ];
  it.each(UPDATES)('%s leaves the links as they were', async (form, data) => {
    const { id, before } = await seed();
    expect(before).toMatchObject({ tags: [tag1], account: userId });
    const r = await send('PUT', `/api/people/${id}`, callers[who], { name: `upd ${form}`, ...data() });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes.name).toBe(`upd ${form}`);
    expect(await linksOf(id)).toEqual(before);
  });

  it('components updated in place keep their links; a new dynamic-zone item gets none', async () => {
    const { id, before } = await seed();
    const cur = (await send('GET', `/api/people/${id}?populate[boxes][populate]=*`, t.token)).body.data.attributes.boxes[0];
    const r = await send('PUT', `/api/people/${id}`, callers[who], {
      boxes: [{ id: cur.id, title: 'b2', inner: { id: cur.inner.id, tag: tag2 }, extras: [{ id: cur.extras[0].id, tag: { disconnect: [tag1] } }] }],
      parts: [{ __component: 'thing.inner', tag: tag2 }],
    });
    expect(r.status).toBe(200);
    expect(await linksOf(id)).toEqual({ ...before, parts: [{ c: 'inner', tag: null }] });
  });
});

describe('the caller\'s own relations and project code', () => {
  it('createdBy / updatedBy in a body are dropped (not writable), for every caller', async () => {
    for (const bearer of [t.token, callers.public, callers.role]) {
      const r = await send('POST', '/api/people', bearer, { name: 'creator', createdBy: 1, updatedBy: 1 });
      expect(r.status).toBe(200);
    }
  });

  it('a multipart body is sanitized like a JSON one', async () => {
    const form = new FormData();
    form.append('data', JSON.stringify({ name: 'multipart', tags: [tag1], account: userId, mentor: mentorId }));
    const res = await fetch(`${t.url}/api/people`, { method: 'POST', body: form });
    const body = await res.json() as any;
    expect(res.status).toBe(200);
    expect(await linksOf(body.data.id)).toEqual({ ...NONE, mentor: mentorId });
  });

  it('strapi.service(uid).create and strapi.entityService.create are trusted: every relation is written', async () => {
    const data = { name: 'trusted', tags: { connect: [tag1] }, account: userId, boxes: [{ title: 'b', inner: { tag: tag2 }, extras: [] }], parts: [{ __component: 'thing.inner', tag: tag1 }] };
    const viaService = await (t.app.strapi.service(PERSON) as any).create({ data }) as { id: number };
    const viaEntityService = await (t.app.strapi as any).entityService.create(PERSON, { data }) as { id: number };
    for (const id of [viaService.id, viaEntityService.id]) {
      expect(await linksOf(id)).toEqual({ ...NONE, tags: [tag1], account: userId, boxes: [{ inner: { tag: tag2 }, extras: [] }], parts: [{ c: 'inner', tag: tag1 }] });
    }
  });
});
