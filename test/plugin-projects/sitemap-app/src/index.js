'use strict';

const fs = require('fs');
const path = require('path');

// Peer bootstrap: idempotent setup of permissions, locales and an API token.
const API_UIDS = {
  collection: ['api::category.category', 'api::author.author', 'api::article.article', 'api::page.page'],
  single: ['api::homepage.homepage'],
};

const PUBLIC_ACTIONS = [
  ...API_UIDS.collection.flatMap((uid) =>
    ['find', 'findOne', 'create', 'update', 'delete'].map((a) => `${uid}.${a}`)
  ),
  // POST /api/<plural>/:id/localizations is a separate action in v4 i18n
  ...API_UIDS.collection
    .filter((uid) => uid === 'api::page.page')
    .map((uid) => `${uid}.createLocalization`),
  ...API_UIDS.single.flatMap((uid) => ['find', 'update', 'delete'].map((a) => `${uid}.${a}`)),
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.findOne',
  'plugin::upload.content-api.upload',
  'plugin::i18n.locales.listLocales',
];

const TOKEN_NAME = 'peer-full-access';
const TOKEN_FILE = path.join(__dirname, '..', '.tmp', 'token.txt');

async function grantPublic(strapi) {
  const roleQuery = strapi.query('plugin::users-permissions.role');
  const permQuery = strapi.query('plugin::users-permissions.permission');
  const publicRole = await roleQuery.findOne({ where: { type: 'public' } });
  if (!publicRole) throw new Error('public role not found');
  const existing = await permQuery.findMany({ where: { role: publicRole.id } });
  const have = new Set(existing.map((p) => p.action));
  let added = 0;
  for (const action of PUBLIC_ACTIONS) {
    if (have.has(action)) continue;
    await permQuery.create({ data: { action, role: publicRole.id } });
    added += 1;
  }
  strapi.log.info(`[peer] public permissions: ${added} added, ${have.size} already present`);
}

async function ensureLocale(strapi, code, name) {
  const locales = strapi.plugin('i18n').service('locales');
  const found = await locales.findByCode(code);
  if (!found) {
    await locales.create({ code, name });
    strapi.log.info(`[peer] locale ${code} created`);
  }
}

async function ensureToken(strapi) {
  const tokens = strapi.service('admin::api-token');
  const existing = await tokens.getByName(TOKEN_NAME);
  if (existing && fs.existsSync(TOKEN_FILE)) return;
  let accessKey;
  if (existing) {
    // Plain value is only known at creation time: regenerate it.
    ({ accessKey } = await tokens.regenerate(existing.id));
  } else {
    ({ accessKey } = await tokens.create({
      name: TOKEN_NAME,
      description: 'Full-access token for differential tests and benchmarks',
      type: 'full-access',
      lifespan: null,
    }));
  }
  fs.mkdirSync(path.dirname(TOKEN_FILE), { recursive: true });
  fs.writeFileSync(TOKEN_FILE, `${accessKey}\n`);
  strapi.log.info(`[peer] API token written to ${TOKEN_FILE}`);
}

// The sitemap settings the plugin's admin page would store. The plugin's bootstrap (before this one) found none
// and stored its defaults; these replace them on first start, then the lifecycles the plugin subscribes at
// bootstrap are subscribed for them and the sitemap is built once (what the admin page's buttons do).
const SITEMAP_SETTINGS = {
  hostname: 'https://example.com',
  includeHomepage: true,
  excludeDrafts: true,
  defaultLanguageUrlType: 'default-locale',
  defaultLanguageUrl: '',
  hostname_overrides: { fr: 'https://example.fr' },
  contentTypes: {
    'api::article.article': {
      languages: { und: { pattern: '/articles/[author.id]/[slug]', priority: 0.7, changefreq: 'weekly', includeLastmod: false } },
    },
    'api::page.page': {
      languages: {
        en: { pattern: '/[slug]', priority: 0.6, changefreq: 'monthly', includeLastmod: false },
        fr: { pattern: '/pages/[slug]', priority: 0.6, changefreq: 'monthly', includeLastmod: false },
      },
    },
    'api::category.category': {
      languages: { und: { pattern: '/categories/[id]-[slug]', priority: '0.4', changefreq: 'daily', includeLastmod: true } },
    },
  },
  customEntries: { '/contact': { changefreq: 'yearly', priority: '0.3' } },
};

async function configureSitemap(strapi) {
  const store = strapi.store({ environment: '', type: 'plugin', name: 'sitemap' });
  const settings = await store.get({ key: 'settings' });
  if (settings && settings.hostname === SITEMAP_SETTINGS.hostname) return;
  await store.set({ key: 'settings', value: SITEMAP_SETTINGS });
  const sitemap = strapi.plugin('sitemap');
  await sitemap.service('lifecycle').loadAllLifecycleMethods();
  await sitemap.service('core').createSitemap();
}

module.exports = {
  register({ strapi }) {
    // for GET /api/probe/sitemap: a lastmod after this is a clock reading
    strapi.config.set('custom.startedAt', new Date());
  },

  async bootstrap({ strapi }) {
    await grantPublic(strapi);
    await ensureLocale(strapi, 'fr', 'French (fr)');
    await ensureToken(strapi);
    await configureSitemap(strapi);
  },
};
