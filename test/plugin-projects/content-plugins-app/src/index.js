'use strict';

const fs = require('fs');
const path = require('path');
const probe = require('./probe-log');

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
  // the navigation plugin's render routes (its list of navigations stays closed to the public)
  'plugin::navigation.client.render',
  'plugin::navigation.client.renderChild',
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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Navigation items as the plugin's admin panel stores them (the plugin has no content-API route that writes),
// written one by one so ids are the same everywhere. The plugin's bootstrap has created "Main navigation".
async function seedNavigation(strapi) {
  const itemQuery = strapi.query('plugin::navigation.navigation-item');
  if ((await itemQuery.count({})) > 0) return;
  const navigations = strapi.query('plugin::navigation.navigation');
  const main = await navigations.findOne({ where: { slug: 'main-navigation' } });
  // the plugin lists navigations by createdAt: apart by a few ms, so the order is the same everywhere
  await sleep(5);
  const footer = await navigations.create({ data: { name: 'Footer', slug: 'footer', visible: true, localeCode: 'en' } });
  await sleep(5);
  await navigations.create({ data: { name: 'Hidden', slug: 'hidden', visible: false, localeCode: 'en' } });
  const audiences = strapi.query('plugin::navigation.audience');
  const members = await audiences.create({ data: { name: 'Members', key: 'members' } });
  const partners = await audiences.create({ data: { name: 'Partners', key: 'partners' } });
  const related = async (master, uid, id) => {
    const link = await strapi.query('plugin::navigation.navigations-items-related').create({
      data: { related_id: String(id), related_type: uid, field: 'navigation', order: 1, master: String(master.id) },
    });
    return link.id;
  };
  const item = (master, data) => itemQuery.create({ data: { master: master.id, ...data } });
  await item(main, {
    title: 'Home', type: 'INTERNAL', path: 'home', uiRouterKey: 'home', menuAttached: true, order: 1,
    related: await related(main, 'api::article.article', 1), audience: [members.id, partners.id],
    additionalFields: { icon: 'house' },
  });
  const blog = await item(main, { title: 'Blog', type: 'WRAPPER', path: 'blog', uiRouterKey: 'blog', menuAttached: true, order: 2 });
  // no title: the navigation takes the related entry's (contentTypesNameFields)
  await item(main, {
    title: '', type: 'INTERNAL', path: 'second-post', uiRouterKey: 'second-post', menuAttached: true, order: 1,
    parent: blog.id, related: await related(main, 'api::article.article', 2),
  });
  // a draft article
  await item(main, {
    title: 'Draft post', type: 'INTERNAL', path: 'draft-post', uiRouterKey: 'draft-post', order: 2,
    parent: blog.id, related: await related(main, 'api::article.article', 8),
  });
  await item(main, {
    title: 'About', type: 'INTERNAL', path: 'about', uiRouterKey: 'about', menuAttached: true, order: 3,
    parent: blog.id, related: await related(main, 'api::page.page', 1), audience: [members.id],
  });
  await item(main, {
    title: 'Docs', type: 'EXTERNAL', externalPath: 'https://example.com/docs', uiRouterKey: 'docs',
    menuAttached: true, order: 3,
  });
  // INTERNAL without a related entry
  await item(main, { title: 'Orphan', type: 'INTERNAL', path: 'orphan', uiRouterKey: 'orphan', order: 4 });
  await item(footer, {
    title: 'Imprint', type: 'EXTERNAL', externalPath: 'https://example.com/imprint', uiRouterKey: 'imprint',
    menuAttached: true, order: 1,
  });
  strapi.log.info('[content-plugins-app] navigation items seeded');
}

const logEvent = (name) => (payload) => probe.add(name, payload);

module.exports = {
  register(/* { strapi } */) {
    probe.clear();
  },

  async bootstrap({ strapi }) {
    await grantPublic(strapi);
    await ensureLocale(strapi, 'fr', 'French (fr)');
    await ensureToken(strapi);
    await seedNavigation(strapi);
    // the publisher emits these (with the entry through @strapi/utils' defaultSanitizeOutput)
    strapi.eventHub.on('entry.publish', logEvent('entry.publish'));
    strapi.eventHub.on('entry.unpublish', logEvent('entry.unpublish'));
  },
};
