// strapi-plugin-populate-deep 3.0.1 beyond its golden (test/compat/plugins-populate-deep.golden.test.ts), on
// test/plugin-projects/content-plugins-app: its db.lifecycles subscriber works below the Content API too, where
// project code passes populate itself. What Strapi 4.26.2 answered the same calls: the entity service turns
// `populate: 'deep,2'` into the database-level ['deep', '2'] the subscriber replaces (no sanitizing there, so a
// private attribute is in the result); strapi.query takes the list form; a plain string is no database populate.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningApp } from '../../helpers/fixture-app';
import { startPluginProject } from './plugin-project-app';

type Json = any;

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('content-plugins-app');
});
afterAll(async () => {
  await running?.stop();
});

const strapi = () => running.app.strapi as Json;
const ARTICLE_KEYS = ['big', 'body', 'createdAt', 'featured', 'id', 'kind', 'meta', 'price', 'publishDate', 'publishedAt', 'rating', 'scheduledAt', 'slug', 'title', 'updatedAt', 'views'];
const POPULATED = ['author', 'blocks', 'categories', 'cover', 'createdBy', 'editorPick', 'gallery', 'links', 'related', 'seo', 'updatedBy'];

it('populates deep through the entity service (depth 2: the creator relations too, private fields unsanitized)', async () => {
  const [article] = await strapi().entityService.findMany('api::article.article', { populate: 'deep,2', filters: { id: 2 } });
  expect(Object.keys(article).sort()).toEqual([...ARTICLE_KEYS, ...POPULATED].sort());
  expect(article.author).toMatchObject({ id: 1, name: 'Author amber', secret: 'secret-0' });
});

it('skips the creator relations at the default depth (skipCreatorFields), as v4', async () => {
  const article = await strapi().entityService.findOne('api::article.article', 2, { populate: 'deep' });
  expect(Object.keys(article).sort()).toEqual([...ARTICLE_KEYS, ...POPULATED.filter((k) => k !== 'createdBy' && k !== 'updatedBy')].sort());
  // one level down the creator relations are populated after all (the depth check comes first), and author.articles
  // is left out: the plugin skips an attribute named like a table it has visited
  expect(Object.keys(article.author).sort()).toEqual(['avatar', 'bio', 'createdAt', 'createdBy', 'email', 'id', 'name', 'secret', 'updatedAt', 'updatedBy']);
});

it('populates deep through strapi.query given the list form, and refuses the plain string as v4 does', async () => {
  const article = await strapi().query('api::article.article').findOne({ where: { id: 2 }, populate: ['deep', '2'] });
  expect(Object.keys(article).sort()).toEqual([...ARTICLE_KEYS, ...POPULATED].sort());
  // 'deep'[0] is not 'deep': the subscriber leaves it, and v4's query engine refuses a string populate
  await expect(strapi().query('api::article.article').findMany({ where: { id: 2 }, populate: 'deep' })).rejects.toThrow();
});
