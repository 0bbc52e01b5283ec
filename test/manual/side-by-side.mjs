#!/usr/bin/env node
// Real Strapi 4.26.2 and Tessera serving ONE PostgreSQL database at the same time (issue 16, part 4): a write
// through either is read through the other at once, and concurrent writes through both lose nothing. Needs
// real Strapi, so it is not part of `npm test`; its last output is kept in side-by-side.result.txt.
//
//   node test/manual/side-by-side.mjs --strapi http://127.0.0.1:1381 --strapi-token T1 \
//        --tessera http://127.0.0.1:1382 --tessera-token T2
//
// Both must serve the fixture app (test/fixtures/strapi4-app) on the same database (see README.md here).
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const servers = {
  strapi: { url: args.strapi, token: args['strapi-token'] },
  tessera: { url: args.tessera, token: args['tessera-token'] },
};
for (const [name, s] of Object.entries(servers)) if (!s.url || !s.token) throw new Error(`--${name} and --${name}-token are required`);

async function call(server, method, path, data) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(data ? { 'content-type': 'application/json' } : {}) },
    body: data ? JSON.stringify({ data }) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** the answer without the clocks each server stamps (the two clocks never agree to the millisecond) */
function stable(body) {
  return JSON.parse(JSON.stringify(body), (k, v) => (k === 'updatedAt' || k === 'createdAt' ? '<time>' : v));
}

const failures = [];
function check(what, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures.push(what);
}
const same = (a, b) => JSON.stringify(stable(a)) === JSON.stringify(stable(b));

const { strapi, tessera } = servers;
const stamp = Date.now();

// 1. written through one, read through the other at once, in the same shape
for (const [writer, reader, wName, rName] of [[strapi, tessera, 'Strapi', 'Tessera'], [tessera, strapi, 'Tessera', 'Strapi']]) {
  const created = await call(writer, 'POST', '/api/articles?populate=*', { title: `by ${wName} ${stamp}`, views: 7, featured: true, price: 12.5, big: '9007199254740993', scheduledAt: '2024-05-06T07:08:09.123Z', meta: { a: [1, 2] }, publishedAt: '2024-01-02T03:04:05.678Z' });
  check(`${wName} creates an article`, created.status === 200, String(created.status));
  const id = created.body?.data?.id;
  const viaOther = await call(reader, 'GET', `/api/articles/${id}?populate=*`);
  const viaSelf = await call(writer, 'GET', `/api/articles/${id}?populate=*`);
  check(`${rName} reads it at once, as ${wName} answers it`, viaOther.status === 200 && same(viaOther.body, viaSelf.body), JSON.stringify(viaOther.body?.data?.attributes ?? viaOther.body));
  const updated = await call(reader, 'PUT', `/api/articles/${id}`, { data: undefined, title: `updated by ${rName}` });
  check(`${rName} updates it`, updated.status === 200, String(updated.status));
  const back = await call(writer, 'GET', `/api/articles/${id}`);
  check(`${wName} reads ${rName}'s update at once`, back.body?.data?.attributes?.title === `updated by ${rName}`);
  const removed = await call(writer, 'DELETE', `/api/articles/${id}`);
  const gone = await call(reader, 'GET', `/api/articles/${id}`);
  check(`${wName} deletes it, ${rName} answers 404 at once`, removed.status === 200 && gone.status === 404, `${removed.status}/${gone.status}`);
}

// 2. concurrent writes through both: nothing lost, links kept
const author = (await call(strapi, 'POST', '/api/authors', { name: `sbs author ${stamp}` })).body.data.id;
const category = (await call(tessera, 'POST', '/api/categories', { name: `sbs category ${stamp}` })).body.data.id;
const n = 20;
const writes = [];
for (let i = 0; i < n; i++) {
  for (const [name, s] of [['strapi', strapi], ['tessera', tessera]]) {
    writes.push(call(s, 'POST', '/api/articles', { title: `sbs ${stamp} ${name} ${i}`, author, categories: [category], publishedAt: new Date().toISOString() }));
  }
}
const answers = await Promise.all(writes);
check(`${2 * n} concurrent creates through both answer 200`, answers.every((a) => a.status === 200), answers.map((a) => a.status).filter((s) => s !== 200).join(','));
for (const [name, s] of [['Strapi', strapi], ['Tessera', tessera]]) {
  const list = await call(s, 'GET', `/api/articles?filters[title][$startsWith]=sbs ${stamp}&pagination[pageSize]=100&populate[author][fields][0]=name&populate[categories][fields][0]=name`);
  const rows = list.body?.data ?? [];
  check(`${name} lists all ${2 * n}, each with its author and category`, rows.length === 2 * n && rows.every((r) => r.attributes.author.data?.id === author && r.attributes.categories.data.length === 1), `${rows.length} rows`);
}
const viaStrapi = await call(strapi, 'GET', `/api/authors/${author}?populate[articles][fields][0]=title&populate[articles][sort][0]=id`);
const viaTessera = await call(tessera, 'GET', `/api/authors/${author}?populate[articles][fields][0]=title&populate[articles][sort][0]=id`);
check('the author with its articles reads the same through both', same(viaStrapi.body, viaTessera.body));

// 3. the same page, populated, through both
const page = '/api/articles?populate=*&sort=id&pagination[pageSize]=50';
const [a, b] = await Promise.all([call(strapi, 'GET', page), call(tessera, 'GET', page)]);
check('a populated page reads the same through both', same(a.body, b.body));

console.log(failures.length ? `${failures.length} failed` : 'all passed');
process.exit(failures.length ? 1 : 0);
