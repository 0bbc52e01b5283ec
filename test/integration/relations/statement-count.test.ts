// Population runs one statement per populated attribute per level (per component type for dynamic zones),
// whatever the number of entries: the same request on 1 entry and on 100 entries runs the same number of
// SQL statements. Measured through HTTP on the fixture app (Public role, warmed caches), with 100 published
// articles that all have every populated relation filled (so no level is skipped for lack of rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';

let running: RunningApp;

async function statementsFor(url: string): Promise<{ count: number; entries: number }> {
  const call = () => running.app.server.inject({ method: 'GET', url });
  const warm = await call(); // caches (permissions, prepared statements) filled
  expect(warm.statusCode).toBe(200);
  const before = running.app.db.statementCount;
  const res = await call();
  const count = running.app.db.statementCount - before;
  const body = res.json() as { data: unknown[] };
  return { count, entries: body.data.length };
}

beforeAll(async () => {
  // the statements of building an answer: the response cache would answer the repeated request without any
  running = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
  const articles = running.app.query('api::article.article');
  const published = await articles.count({ where: { publishedAt: { $notNull: true } } });
  // every new article like the fixture's article 2: author, categories, seo with image, links, all block types
  for (let i = published; i < 100; i++) {
    await articles.create({
      data: {
        title: `Bulk ${i}`, publishedAt: new Date(), author: 1 + (i % 8), categories: [1 + (i % 6), 1 + ((i + 1) % 6)],
        seo: { metaTitle: `Bulk ${i}`, shareImage: 1 }, links: [{ label: 'l', url: 'https://l' }],
        blocks: [{ __component: 'blocks.text', body: 't' }, { __component: 'blocks.quote', text: 'q' }, { __component: 'blocks.gallery', title: 'g', images: [1, 2] }],
        cover: 2, gallery: [1, 3], related: [2], editorPick: 2,
      },
    });
  }
});
afterAll(async () => {
  await running?.stop();
});

// one of the articles created above (every populated relation filled)
const ONE = 'filters[title][$eq]=Bulk%2099';
const ALL = 'pagination[pageSize]=100';

describe.each([
  ['populate=*', 'populate=*'],
  ['nested dotted paths', 'populate=categories.articles.author,seo.shareImage,blocks.images,author.avatar,related.categories'],
  ['dynamic zone with on', 'populate[blocks][on][blocks.gallery][populate][images][fields][0]=name&populate[blocks][on][blocks.quote][fields][0]=by&populate[blocks][on][blocks.text]=true'],
  ['objects with fields, filters, sort and count', 'populate[categories][fields][0]=name&populate[categories][sort]=name:desc&populate[categories][populate][articles][count]=true&populate[author][filters][name][$notNull]=true&populate[author][populate][avatar][fields][0]=url'],
])('%s', (_name, populate) => {
  it('runs as many statements for 100 entries as for 1', async () => {
    const one = await statementsFor(`/api/articles?${populate}&${ONE}`);
    const all = await statementsFor(`/api/articles?${populate}&${ALL}`);
    expect(one.entries).toBe(1);
    expect(all.entries).toBe(100);
    expect(all.count).toBe(one.count);
  });
});

const NESTED = 'populate[author]=true&populate[categories]=true&populate[seo][populate][shareImage]=true&populate[blocks][populate]=*';

it('REST reads: the database writes the populated entries, ONE statement for the page whatever the populate tree', async () => {
  // SQLite: the page (entries as JSON, population included) + the check that the cached total is still valid;
  // PostgreSQL: the page with its total in the same statement (no total is kept there: storage/count-cache.ts)
  const { count } = await statementsFor(`/api/articles?${NESTED}&${ALL}`);
  expect(count).toBe(onPostgres ? 1 : 1 + 1);
});

it('the JavaScript path (project services, strapi.query): one statement per populated attribute and level', async () => {
  const service = running.app.strapi.service('api::article.article') as { find(params: object): Promise<unknown> };
  const find = () => service.find({ populate: { author: true, categories: true, seo: { populate: { shareImage: true } }, blocks: { populate: '*' } }, pagination: { pageSize: 100 } });
  await find(); // the total is counted once, then kept while the data is unchanged
  const before = running.app.db.statementCount;
  await find();
  // page + total (its cache check) + author + categories + seo + seo.shareImage + 3 block types + gallery images
  expect(running.app.db.statementCount - before).toBe(2 + 1 + 1 + 1 + 1 + 3 + 1);
});
