// Fuzz: GraphQL through the real HTTP server (the fixture app on a loopback port), POST with a JSON body and
// GET: queries built from the schema (deep and wide selections, aliases, arguments of every input type, as
// literals or variables, sometimes of the wrong type), hostile documents (fragment cycles, fragments that
// explode, many aliases, huge lists, strings and variables, unknown operations, syntax garbage, batches), and
// mutations with mostly sound, sometimes bad input. No 5xx, no answer slower than 5 s, every error in GraphQL's
// shape; afterwards the database is whole and every entry a mutation answered is readable.
// Seeded: FUZZ_SEED, FUZZ_RUNS (fuzz-kit.ts).
import fc from 'fast-check';
import { GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { consistencyProblems } from '../helpers/db-consistency';
import { checkGraphqlAnswer, checkRestAnswer, fuzz, send, serveFixtureApp, timeoutOf, title, type Answer } from './fuzz-kit';
import { Dice, FIXTURE_SCHEMA, hostile, HOSTILE_KINDS, operation } from './graphql-documents';

const served = serveFixtureApp();

type Auth = 'token' | 'public' | 'bad';
const AUTH = fc.oneof({ arbitrary: fc.constant<Auth>('token'), weight: 8 }, { arbitrary: fc.constant<Auth>('public'), weight: 2 }, { arbitrary: fc.constant<Auth>('bad'), weight: 1 });
const authHeader = (auth: Auth): Record<string, string> =>
  auth === 'token' ? { authorization: `Bearer ${served.running.token}` } : auth === 'bad' ? { authorization: 'Bearer not-a-token' } : {};

/** POST with a JSON body (the body as given), or GET with the operation in the query string */
function gqlRequest(body: unknown, auth: Auth, get: boolean): Promise<Answer> {
  if (get && body && typeof body === 'object' && !Array.isArray(body)) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    return send(served.port, { path: `/graphql?${params}`, headers: { accept: 'application/json', ...authHeader(auth) } });
  }
  return send(served.port, { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', ...authHeader(auth) }, body: JSON.stringify(body) });
}

const QUERY = FIXTURE_SCHEMA.getQueryType() as GraphQLObjectType;
const MUTATION = FIXTURE_SCHEMA.getMutationType() as GraphQLObjectType;
/** mutations the run may call: writes of entries and file infos, login and register (no deletes, no roles: the run reads its writes back) */
const MUTATIONS = /^(create|update)(Article|Author|Category|Page|Homepage|UploadFile)$|^updateHomepage$|^updateFileInfo$|^login$|^register$/;

/** where REST reads an entry a mutation answered */
const READ_BACK: Record<string, (id: string) => string> = {
  Article: (id) => `/api/articles/${id}?publicationState=preview`, Author: (id) => `/api/authors/${id}`, Category: (id) => `/api/categories/${id}`,
  Page: (id) => `/api/pages/${id}?publicationState=preview`, Homepage: () => '/api/homepage',
};
const toRead = new Set<string>();

describe('GraphQL documents', () => {
  it(title('graphql queries', 'queries built from the schema, POST and GET'), async () => {
    let withData = 0;
    const queryCase = fc.record({ seed: fc.nat(), auth: AUTH, get: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, fc.constant(true)), maxDepth: fc.integer({ min: 2, max: 10 }), width: fc.integer({ min: 1, max: 8 }), asVariables: fc.boolean() });
    await fuzz('graphql queries', 30, served.port, queryCase, async (c) => {
      const body = operation(new Dice(c.seed), QUERY, () => true, c);
      const what = `${c.get ? 'GET' : 'POST'} (${c.auth}) ${JSON.stringify(body)}`;
      const [answer] = checkGraphqlAnswer(what, await gqlRequest(body, c.auth, c.get));
      if (answer.data && !answer.errors) withData++;
    });
    // a good share went all the way to the database
    expect(withData).toBeGreaterThan(10);
  }, timeoutOf('graphql queries'));

  it(title('graphql documents', 'hostile documents of every kind'), async () => {
    const hostileCase = fc.record({ kind: fc.constantFrom(...HOSTILE_KINDS), seed: fc.nat(), auth: AUTH, get: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, fc.constant(true)) });
    await fuzz('graphql documents', 31, served.port, hostileCase, async (c) => {
      const body = hostile(c.kind, new Dice(c.seed));
      const what = `${c.kind}: ${c.get ? 'GET' : 'POST'} (${c.auth}) ${JSON.stringify(body).slice(0, 500)}`;
      const a = await gqlRequest(body, c.auth, c.get);
      // Apollo's refusal of what is not an operation at all is a 400 with errors; mercurius' batch answers a list
      checkGraphqlAnswer(what, a);
    });
  }, timeoutOf('graphql documents'));

  it(title('graphql mutations', 'mutations with sound and bad input'), async () => {
    const mutationCase = fc.record({ seed: fc.nat(), auth: AUTH, maxDepth: fc.integer({ min: 2, max: 5 }), width: fc.integer({ min: 1, max: 5 }), asVariables: fc.boolean() });
    await fuzz('graphql mutations', 32, served.port, mutationCase, async (c) => {
      const body = operation(new Dice(c.seed), MUTATION, (name) => MUTATIONS.test(name), c);
      const what = `(${c.auth}) ${JSON.stringify(body)}`;
      const [answer] = checkGraphqlAnswer(what, await gqlRequest(body, c.auth, false));
      // every entry a mutation answered with its id, to read back through REST
      for (const [, alias, field] of body.query.matchAll(/(r\d+): ((?:create|update)\w+)/g)) {
        const type = /^(?:create|update)(\w+)$/.exec(field)![1];
        const id = (answer.data?.[alias] as { data?: { id?: string } } | null)?.data?.id;
        if (id && READ_BACK[type]) toRead.add(READ_BACK[type](id));
      }
    });
  }, timeoutOf('graphql mutations'));

  it('afterwards: the database is whole and every entry a mutation answered is readable', async () => {
    expect(await consistencyProblems(served.running.app)).toEqual([]);
    for (const p of toRead) {
      const a = await send(served.port, { path: p, headers: authHeader('token') });
      checkRestAnswer(`GET ${p}`, a);
      expect(a.status, p).toBe(200);
    }
  }, 120_000);
});
