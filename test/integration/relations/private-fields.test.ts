// Private attributes of populated targets never leave the server (strapi/strapi#7856: users' password,
// resetPasswordToken and confirmationToken), whatever the populate form; naming them is a 400.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelationsApp, type RunningRelationsApp } from './relations-app';

let running: RunningRelationsApp;
const get = async (url: string, auth = true) => {
  const res = await fetch(running.url + url, { headers: auth ? { authorization: `Bearer ${running.token}` } : {} });
  return { status: res.status, text: await res.text() };
};

beforeAll(async () => {
  running = await startRelationsApp();
  const users = running.app.query('plugin::users-permissions.user');
  const user = await users.create({ data: { username: 'u1', email: 'u1@example.com', password: 'hash-of-secret', resetPasswordToken: 'reset-secret', confirmationToken: 'confirm-secret', provider: 'local', confirmed: true } });
  await running.app.query('api::person.person').create({ data: { name: 'Ann', account: user.id, friends: [] } });
  await running.app.query('api::person.person').create({ data: { name: 'Bob', friends: [1], boxes: [] } });
});
afterAll(async () => {
  await running?.stop();
});

const SECRETS = /hash-of-secret|reset-secret|confirm-secret|"password"|resetPasswordToken|confirmationToken/;

it.each([
  '/api/people?populate=*',
  '/api/people?populate[account]=true',
  '/api/people?populate=account',
  '/api/people?populate[account][populate]=*',
  '/api/people?populate[friendOf][populate][account]=true',
  '/api/people?populate=friendOf.account.role',
])('never returns private fields of populated users: %s', async (url) => {
  const { status, text } = await get(url);
  expect(status).toBe(200);
  expect(JSON.parse(text).data).toHaveLength(2);
  expect(text).not.toMatch(SECRETS);
});

it('populates the user (as the full-access token) with its public fields only', async () => {
  const { text } = await get('/api/people/1?fields[0]=name&populate[account]=true');
  const body = JSON.parse(text);
  expect(body.data.attributes.account.data.attributes.username).toBe('u1');
  expect(Object.keys(body.data.attributes.account.data.attributes).sort()).toEqual(['blocked', 'confirmed', 'createdAt', 'email', 'provider', 'updatedAt', 'username']);
});

it.each([
  '/api/people?populate[account][fields][0]=password',
  '/api/people?populate[account][fields][0]=resetPasswordToken',
  '/api/people?populate[account][filters][password][$startsWith]=h',
  '/api/people?populate[account][sort]=confirmationToken',
])('naming a private field of a populated target is a 400: %s', async (url) => {
  const { status, text } = await get(url);
  expect(status).toBe(400);
  expect(JSON.parse(text).error.message).toMatch(/^Invalid parameter /);
});

it('leaves a type the caller may not read out of populate (Public role without users find)', async () => {
  const { text } = await get('/api/people/1?fields[0]=name&populate[account]=true&populate=*', false);
  expect(JSON.parse(text).data.attributes).not.toHaveProperty('account');
  const dotted = await get('/api/people/2?fields[0]=name&populate=friends.account', false);
  const friend = JSON.parse(dotted.text).data.attributes.friends.data[0];
  expect(friend.attributes.name).toBe('Ann');
  expect(friend.attributes).not.toHaveProperty('account');
});
