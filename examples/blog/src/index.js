'use strict';

// Runs the same on Tessera and on real Strapi 4.26.2:
// (a) lets anonymous visitors read the blog (Public role), idempotently;
// (b) on the very first start (no article yet), writes some sample content.

const PUBLIC_ACTIONS = [
  'api::article.article.find',
  'api::article.article.findOne',
  'api::author.author.find',
  'api::author.author.findOne',
  'api::category.category.find',
  'api::category.category.findOne',
  'api::global.global.find',
];

async function grantPublicPermissions(strapi) {
  const publicRole = await strapi
    .query('plugin::users-permissions.role')
    .findOne({ where: { type: 'public' } });
  if (!publicRole) {
    strapi.log.warn('[blog] no Public role found: public permissions not granted');
    return;
  }
  const permissions = strapi.query('plugin::users-permissions.permission');
  const existing = await permissions.findMany({ where: { role: publicRole.id } });
  const have = new Set(existing.map((p) => p.action));
  const missing = PUBLIC_ACTIONS.filter((action) => !have.has(action));
  for (const action of missing) {
    await permissions.create({ data: { action, role: publicRole.id } });
  }
  if (missing.length) {
    strapi.log.info(`[blog] Public role may now read: ${missing.join(', ')}`);
  }
}

const slugify = (text) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

// Real Strapi's db query layer (strapi.query) does not write components; its entity service does.
// Tessera's strapi.query writes components too. Use the entity service where there is one.
function createEntry(strapi, uid, data) {
  if (strapi.entityService) return strapi.entityService.create(uid, { data });
  return strapi.query(uid).create({ data });
}

async function findOrCreate(strapi, uid, where, data) {
  const found = await strapi.query(uid).findOne({ where });
  return found || createEntry(strapi, uid, data);
}

const AUTHORS = [
  {
    name: 'Ada Moreau',
    email: 'ada.moreau@example.com',
    bio: 'Writes about databases, and about the people who keep them running at 3 a.m.',
  },
  {
    name: 'Kofi Mensah',
    email: 'kofi.mensah@example.com',
    bio: 'Front-end developer. Turns APIs into pages and pages into complaints about APIs.',
  },
  {
    name: 'Lena Fischer',
    email: 'lena.fischer@example.com',
    bio: 'Runs the infrastructure of a small newsroom and benchmarks everything twice.',
  },
];

const CATEGORIES = [
  { name: 'News', description: 'What changed, and why it matters.' },
  { name: 'Tutorials', description: 'Step-by-step guides to the Content API.' },
  { name: 'Engineering', description: 'How things work under the hood.' },
  { name: 'Opinion', description: 'Views of the authors, not of their databases.' },
];

// author: index in AUTHORS; categories: indexes in CATEGORIES; published: false makes a draft.
const ARTICLES = [
  {
    title: 'Hello, Tessera',
    description: 'A Strapi v4 project, served as it is.',
    body: '# Hello\n\nThis blog is a plain **Strapi v4** project. Point any v4 client at it: the REST API answers the same way.',
    views: 120,
    featured: true,
    publishedDate: '2024-01-08',
    author: 0,
    categories: [0],
    seo: { metaTitle: 'Hello, Tessera', metaDescription: 'The first post of the example blog.' },
  },
  {
    title: 'Filtering articles by title',
    description: 'The $containsi operator, and friends.',
    body: 'Try `/api/articles?filters[title][$containsi]=tessera` and then `$startsWith`, `$in` and `$between`.',
    views: 85,
    publishedDate: '2024-01-15',
    author: 1,
    categories: [1],
    seo: { metaTitle: 'Filtering articles', metaDescription: 'Filters in the Strapi v4 REST API.' },
  },
  {
    title: 'Pages or offsets',
    description: 'Two ways to paginate a list.',
    body: '`pagination[page]=2&pagination[pageSize]=3` or `pagination[start]=3&pagination[limit]=3`: pick one per request.',
    views: 64,
    publishedDate: '2024-02-02',
    author: 2,
    categories: [1],
  },
  {
    title: 'Why every list ends with id',
    description: 'Deterministic ordering, page after page.',
    body: 'When two entries sort equal, the one with the smaller id comes first. Always.',
    views: 42,
    publishedDate: '2024-02-20',
    author: 0,
    categories: [2, 3],
    seo: { metaTitle: 'Deterministic ordering', metaDescription: 'Stable pages with a final id tie-break.' },
  },
  {
    title: 'Populate, one level at a time',
    description: 'Relations and components in one request.',
    body: '`populate[author]=true&populate[categories][fields][0]=name&populate[seo]=true`',
    views: 31,
    publishedDate: '2024-03-05',
    author: 1,
    categories: [1, 2],
  },
  {
    title: 'A week of SQLite in WAL mode',
    description: 'Durable writes without waiting on readers.',
    body: 'WAL with `synchronous=FULL`: readers never block the writer, and an acknowledged write survives a power cut.',
    views: 17,
    featured: true,
    publishedDate: '2024-03-18',
    author: 2,
    categories: [2],
    seo: { metaTitle: 'SQLite in WAL mode' },
  },
  {
    title: 'Notes on GraphQL',
    description: 'Not published yet.',
    body: 'Work in progress.',
    author: 0,
    categories: [2],
    published: false,
  },
  {
    title: 'Release checklist',
    description: 'Not published yet either.',
    body: '- [ ] changelog\n- [ ] benchmarks\n- [ ] docs',
    author: 1,
    categories: [],
    published: false,
  },
];

async function seedSampleContent(strapi) {
  const articleCount = await strapi.query('api::article.article').count();
  if (articleCount > 0) return;

  const authors = [];
  for (const a of AUTHORS) {
    authors.push(await findOrCreate(strapi, 'api::author.author', { email: a.email }, a));
  }
  const categories = [];
  for (const c of CATEGORIES) {
    const slug = slugify(c.name);
    categories.push(await findOrCreate(strapi, 'api::category.category', { name: c.name }, { ...c, slug }));
  }

  let drafts = 0;
  for (const { published = true, author, categories: cats, ...fields } of ARTICLES) {
    if (!published) drafts += 1;
    await createEntry(strapi, 'api::article.article', {
      ...fields,
      slug: slugify(fields.title),
      author: authors[author].id,
      categories: cats.map((i) => categories[i].id),
      publishedAt: published ? new Date() : null,
    });
  }

  let globalSeeded = false;
  if ((await strapi.query('api::global.global').count()) === 0) {
    await createEntry(strapi, 'api::global.global', {
      siteName: 'Tessera Blog',
      siteDescription: 'An example Strapi v4 project: a few authors, categories and articles.',
      defaultSeo: {
        metaTitle: 'Tessera Blog',
        metaDescription: 'Articles about serving the Strapi v4 Content API.',
      },
    });
    globalSeeded = true;
  }

  strapi.log.info(
    `[blog] seeded ${authors.length} authors, ${categories.length} categories, ` +
      `${ARTICLES.length} articles (${ARTICLES.length - drafts} published, ${drafts} drafts)` +
      (globalSeeded ? ' and the global settings' : '')
  );
}

module.exports = {
  /**
   * Runs before the application is initialized.
   */
  register(/* { strapi } */) {},

  /**
   * Runs before the application starts serving requests.
   */
  async bootstrap({ strapi }) {
    await grantPublicPermissions(strapi);
    await seedSampleContent(strapi);
  },
};
