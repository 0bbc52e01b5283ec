// Issue #20 part 4 (query and body side): a number the column cannot hold and JSON nested without end are a
// client's mistake: 400 ValidationError in v4's envelope, never a 500, and nothing written. In-range values
// keep v4's answers (the query and types goldens cover those in detail; a few boundaries are checked here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, startProjectCopy, type RunningApp } from '../helpers/fixture-app';
import { FIXTURE_APP } from '../helpers/fixture-model';
import { dbFingerprint } from '../helpers/db-fingerprint';
import { onPostgres } from '../helpers/test-database';

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureApp(true);
});
afterAll(async () => {
  await running?.stop();
});

interface Answer { status: number; body: { data?: unknown; error?: { status: number; name: string; message: string } } }

async function request(method: string, url: string, body?: string): Promise<Answer> {
  const res = await fetch(`${running.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${running.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** the fingerprint leaves out the token table: a token's use records `lastUsedAt` */
const fingerprint = () => dbFingerprint(running.app.db, ['strapi_api_tokens']);

function expectValidationError(what: string, a: Answer, message?: RegExp): void {
  expect({ what, status: a.status, data: a.body.data, status2: a.body.error?.status, name: a.body.error?.name }).toEqual({ what, status: 400, data: null, status2: 400, name: 'ValidationError' });
  if (message) expect(a.body.error?.message, what).toMatch(message);
}

const list = (filters: string) => request('GET', `/api/articles?fields[0]=slug&publicationState=preview&pagination[pageSize]=100&${filters}`);

/** every place a value can take in a filter on attribute `a` */
function filterForms(a: string, raw: string): string[] {
  const v = encodeURIComponent(raw);
  return [
    `filters[${a}][$gt]=${v}`, `filters[${a}][$eq]=${v}`, `filters[${a}][$ne]=${v}`, `filters[${a}][$lte]=${v}`, `filters[${a}]=${v}`,
    `filters[${a}][$in][0]=1&filters[${a}][$in][1]=${v}`, `filters[${a}][$notIn][0]=${v}`, `filters[${a}][0]=1&filters[${a}][1]=${v}`,
    `filters[${a}][$between][0]=0&filters[${a}][$between][1]=${v}`, `filters[${a}][$not]=${v}`, `filters[${a}][$not][$lt]=${v}`,
    `filters[$not][${a}][$eq]=${v}`, `filters[$or][0][${a}]=${v}`, `filters[${a}][$eq][0]=${v}`,
    // through a relation, and inside a populated relation's own filters
    `filters[editorPick][${a}][$gt]=${v}`, `filters[author][articles][${a}][$lt]=${v}`, `populate[related][filters][${a}][$gt]=${v}`,
  ];
}

const BEYOND_64_BITS = ['9223372036854775808', '-9223372036854775809', '99999999999999999999', '1e20', '-1e20', '0x8000000000000000'];
const NOT_FINITE = ['1e400', '-1e400', 'Infinity', '-Infinity', 'NaN'];

describe('number filters', () => {
  it.each(['big', 'views'])('%s: a value beyond 64 bits or not finite is a 400 in every form', async (a) => {
    for (const raw of [...BEYOND_64_BITS, ...NOT_FINITE]) {
      for (const form of filterForms(a, raw)) expectValidationError(form, await list(form), new RegExp(`for ${a}: expected`));
    }
  });

  it.each(['rating', 'price'])('%s: a value that is not finite is a 400 in every form', async (a) => {
    for (const raw of NOT_FINITE) {
      for (const form of filterForms(a, raw)) expectValidationError(form, await list(form), new RegExp(`for ${a}: expected`));
    }
  });

  it('the edges of the 64-bit range and v4\'s number forms keep their answers', async () => {
    const count = async (filters: string) => {
      const a = await list(filters);
      expect(a.status, filters).toBe(200);
      return (a.body.data as unknown[]).length;
    };
    const withBig = await count('filters[big][$notNull]=true');
    const withViews = await count('filters[views][$notNull]=true');
    expect(await count(`filters[big][$lte]=9223372036854775807`)).toBe(withBig);
    expect(await count(`filters[big][$gte]=-9223372036854775808`)).toBe(withBig);
    expect(await count(`filters[big][$gt]=9223372036854775807`)).toBe(0);
    expect(await count(`filters[big][$in][0]=-9223372036854775808&filters[big][$in][1]=9223372036854775807`)).toBe(0);
    expect(await count(`filters[big][$between][0]=-9223372036854775808&filters[big][$between][1]=9223372036854775807`)).toBe(withBig);
    expect(await count(`filters[views][$lt]=9223372036854775807`)).toBe(withViews);
    expect(await count(`filters[views][$gt]=-9223372036854775808`)).toBe(withViews);
    expect(await count(`filters[views][$lt]=2147483648`)).toBe(withViews);
    // v4 reads these with lodash toNumber ('' is 0, '0x10' is 16); a float column takes any finite number
    expect(await count(`filters[views][$lt]=0x10`)).toBe(await count(`filters[views][$lt]=16`));
    expect(await count(`filters[views][$lt]=`)).toBe(0);
    expect(await count(`filters[rating][$lt]=1e300`)).toBe(await count('filters[rating][$notNull]=true'));
    expect(await count(`filters[price][$gt]=-99999999999999999999`)).toBe(await count('filters[price][$notNull]=true'));
  });

  it('pagination past the safe integers is a 400; a number searched with _q is text', async () => {
    for (const p of ['pagination[page]=1e20', 'pagination[pageSize]=1e400', 'pagination[start]=99999999999999999999', 'pagination[limit]=-1e20']) {
      expectValidationError(p, await request('GET', `/api/articles?${p}`), /^Invalid pagination parameter/);
    }
    for (const q of ['99999999999999999999', '1e400', 'NaN', '-9223372036854775809']) {
      expect({ q, status: (await request('GET', `/api/articles?_q=${q}`)).status }).toEqual({ q, status: 200 });
    }
  });

  it('ids beyond 64 bits are no 500 either (no row has such an id)', async () => {
    for (const raw of [...BEYOND_64_BITS, ...NOT_FINITE]) {
      for (const form of [`filters[id][$gt]=${raw}`, `filters[id]=${raw}`, `filters[author]=${raw}`, `filters[author][id][$in][0]=${raw}`]) {
        const a = await list(form);
        expect({ form, status: a.status }).toEqual({ form, status: 200 });
      }
    }
  });
});

describe('number writes', () => {
  const create = (data: string) => request('POST', '/api/articles', `{"data":{"title":"numbers",${data}}}`);
  const update = (data: string) => request('PUT', '/api/articles/1', `{"data":{${data}}}`);

  // raw JSON text: `1e400` is valid JSON that parses to Infinity
  const REFUSED = [
    '"big":"99999999999999999999"', '"big":99999999999999999999', '"big":"9223372036854775808"', '"big":"-9223372036854775809"', '"big":1e400',
    '"views":9223372036854775808', '"views":1e20', '"views":-1e20', '"views":"99999999999999999999"', '"views":1e400', '"views":"-Infinity"',
    '"rating":1e400', '"rating":"1e400"', '"rating":"Infinity"', '"rating":-1e400', '"price":1e400', '"price":"-Infinity"', '"price":"1e400"',
  ];

  it.each(REFUSED)('%s: 400 on create and update, nothing written', async (data) => {
    const before = await fingerprint();
    expectValidationError(`create ${data}`, await create(data));
    expectValidationError(`update ${data}`, await update(data));
    expect(await fingerprint(), data).toBe(before);
  });

  const storedAs = async (cases: ReadonlyArray<readonly [string, string, unknown]>) => {
    for (const [data, attr, expected] of cases) {
      const a = await create(data);
      expect({ data, status: a.status }).toEqual({ data, status: 200 });
      const id = (a.body.data as { id: number }).id;
      const read = await request('GET', `/api/articles/${id}?fields[0]=${attr}`);
      expect((read.body.data as { attributes: Record<string, unknown> }).attributes[attr], data).toEqual(expected);
    }
  };
  const BEYOND_32_BITS = [['"views":2147483648', 'views', 2147483648], ['"views":-9007199254740991', 'views', -9007199254740991]] as const;

  it('the 64-bit edges are stored exactly', async () => {
    await storedAs([
      ['"big":"9223372036854775807"', 'big', '9223372036854775807'],
      ['"big":"-9223372036854775808"', 'big', '-9223372036854775808'],
      ['"rating":1e300', 'rating', 1e300],
    ]);
  });

  it.skipIf(onPostgres)('an integer beyond 32 bits is stored as v4 on SQLite stores it (SQLite only: its integer column holds 64 bits)', async () => {
    await storedAs(BEYOND_32_BITS);
  });

  it.runIf(onPostgres)('an integer beyond 32 bits: 400 on create and update, nothing written (PostgreSQL only: v4\'s integer column is int4 there)', async () => {
    const before = await fingerprint();
    for (const [data] of BEYOND_32_BITS) {
      expectValidationError(`create ${data}`, await create(data));
      expectValidationError(`update ${data}`, await update(data));
    }
    expect(await fingerprint()).toBe(before);
  });
});

describe('JSON nesting', () => {
  const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const arrays = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
  const BODY_TOO_DEEP = /^The request body must not nest objects and arrays more than 64 levels deep$/;

  // levels count from the body's top: `{"data":{"meta":{"x":[...]}}}` is 3 levels before the array
  it.each([
    ['an object 5,000 levels deep', objects(5000)],
    ['an array 5,000 levels deep', arrays(5000)],
    ['an array 300,000 levels deep', arrays(300_000)],
    ['objects and arrays, 65 levels in all (one past the limit)', `{"x":${arrays(31)},"y":[${'{"b":['.repeat(30)}{}${']}'.repeat(30)}]}`],
  ])('a json attribute holding %s: 400 naming the limit, nothing written', async (_name, json) => {
    const before = await fingerprint();
    expectValidationError('create', await request('POST', '/api/articles', `{"data":{"title":"deep","meta":${json}}}`), BODY_TOO_DEEP);
    expectValidationError('update', await request('PUT', '/api/articles/1', `{"data":{"meta":${json}}}`), BODY_TOO_DEEP);
    expect(await fingerprint()).toBe(before);
  });

  it('64 levels in all are stored and read back', async () => {
    const meta = JSON.parse(`{"x":${arrays(61)}}`) as unknown;
    const a = await request('POST', '/api/articles', JSON.stringify({ data: { title: 'deep enough', meta } }));
    expect(a.status).toBe(200);
    const id = (a.body.data as { id: number }).id;
    const read = await request('GET', `/api/articles?filters[id]=${id}&fields[0]=meta&publicationState=preview`);
    expect(read.status).toBe(200);
    expect((read.body.data as { attributes: { meta: unknown } }[])[0].attributes.meta).toEqual(meta);
  });

  it('a multipart write checks the json value itself: 65 levels are a 400 naming the attribute, nothing written', async () => {
    const multipart = async (method: string, url: string, data: string): Promise<Answer> => {
      const form = new FormData();
      form.append('data', data);
      const res = await fetch(`${running.url}${url}`, { method, headers: { authorization: `Bearer ${running.token}` }, body: form });
      return { status: res.status, body: (await res.json()) as Answer['body'] };
    };
    const before = await fingerprint();
    for (const meta of [arrays(65), objects(5000), arrays(300_000)]) {
      expectValidationError('create', await multipart('POST', '/api/articles', `{"title":"deep","meta":${meta}}`), /^meta must not nest objects and arrays more than 64 levels deep$/);
      expectValidationError('update', await multipart('PUT', '/api/articles/1', `{"meta":${meta}}`), /^meta must not nest objects and arrays more than 64 levels deep$/);
    }
    expect(await fingerprint()).toBe(before);
    // deep JSON elsewhere in `data` is left out or refused as v4 does, and no 500 either
    for (const data of [`{"title":"deep","nope":${arrays(300_000)}}`, `{"title":"deep","author":{"connect":${arrays(300_000)}}}`, `{"title":"deep","seo":{"metaTitle":"t","x":${objects(5000)}}}`]) {
      const a = await multipart('POST', '/api/articles', data);
      expect(a.status, data.slice(0, 40)).toBeLessThan(500);
    }
    const ok = await multipart('POST', '/api/articles', `{"title":"deep enough","meta":${arrays(64)}}`);
    expect(ok.status).toBe(200);
  });

  it.each([
    ['a relation value', (d: string) => `{"data":{"title":"deep","author":{"connect":${d}}}}`],
    ['a component', (d: string) => `{"data":{"title":"deep","seo":{"metaTitle":"t","extra":${d}}}}`],
    ['an unknown attribute', (d: string) => `{"data":{"title":"deep","nope":${d}}}`],
    ['beside data', (d: string) => `{"data":{"title":"deep"},"other":${d}}`],
  ])('deep JSON in %s: a 400, not a 500, nothing written', async (_name, body) => {
    const before = await fingerprint();
    for (const d of [arrays(5000), objects(5000), arrays(300_000)]) {
      expectValidationError('create', await request('POST', '/api/articles', body(d)), BODY_TOO_DEEP);
    }
    expect(await fingerprint()).toBe(before);
  });

  it('other routes refuse deep bodies the same way', async () => {
    for (const [url, body] of [
      ['/api/auth/local', `{"identifier":${arrays(5000)},"password":"x"}`],
      ['/api/auth/local/register', `{"username":"deep","email":"deep@example.com","password":"secret-1","x":${objects(5000)}}`],
      ['/api/authors', `{"data":{"name":${objects(5000)}}}`],
    ] as const) {
      const a = await request('POST', url, body);
      expect({ url, status: a.status, name: a.body.error?.name, message: a.body.error?.message }).toEqual({ url, status: 400, name: 'ValidationError', message: expect.stringMatching(BODY_TOO_DEEP) });
    }
  });

  it('a filter on a json attribute cannot nest: qs stops at its depth, and an object value is a 400', async () => {
    expectValidationError('deep filter', await list(`filters[meta]${'[a]'.repeat(30)}=1`));
    expectValidationError('object value', await list('filters[meta][$eq][a]=1'));
  });

  it('the server stays healthy and the articles readable', async () => {
    const health = await fetch(`${running.url}/_health`);
    expect(health.status).toBe(204);
    expect((await list('filters[meta][$notNull]=true')).status).toBe(200);
  });
});

describe('config/api.js rest.maxJsonDepth', () => {
  it('sets the limit of request bodies and of json values', async () => {
    const app = await startProjectCopy(FIXTURE_APP, { 'config/api.js': 'module.exports = { rest: { maxJsonDepth: 4 } };' });
    try {
      const post = async (body: string | FormData) => {
        const res = await fetch(`${app.url}/api/articles`, { method: 'POST', body, headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {} });
        return { status: res.status, body: (await res.json()) as Answer['body'] };
      };
      const form = (data: string) => {
        const f = new FormData();
        f.append('data', data);
        return f;
      };
      expect((await post('{"data":{"title":"t","meta":[[1]]}}')).status).toBe(200);
      expectValidationError('body', await post('{"data":{"title":"t","meta":[[[1]]]}}'), /^The request body must not nest objects and arrays more than 4 levels deep$/);
      expect((await post(form('{"title":"t","meta":[[[[1]]]]}'))).status).toBe(200);
      expectValidationError('multipart', await post(form('{"title":"t","meta":[[[[[1]]]]]}')), /^meta must not nest objects and arrays more than 4 levels deep$/);
    } finally {
      await app.stop();
    }
  });
});
