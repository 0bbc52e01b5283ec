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
  // fields-app: products may be read one by one (findOne) but not listed (find), which slugify's findSlug needs
  'api::product.product.findOne',
  'plugin::slugify.slugController.findSlug',
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

// fields-app: products with the custom fields, written through the entity service so that slugify's lifecycles
// (subscribed in its bootstrap, which runs before this one) give them their slugs
const PRODUCTS = [
  {
    name: 'Red Chair',
    color: '#ff0000',
    tags: ['red', 'Sale'],
    internalTags: ['audit'],
    description: '<p>A <strong>red</strong> chair</p>',
    notes: '**sturdy**',
    swatches: [{ label: 'Primary', color: '#ff0000' }, { label: 'Trim', color: '#fff' }],
    category: 1,
  },
  { name: 'Blue Table', color: '#0000FF', background: '#eeeeee', tags: ['blue'], description: '<p>Blue</p>', category: 2 },
  { name: 'Green Lamp', color: '#00ff00', tags: ['green', 'Sale'], swatches: [{ label: 'Shade', color: '#0f0' }] },
  { name: 'Plain Box', tags: [] },
  { name: 'Red Chair', color: '#aa0000', tags: ['red'] },
];

async function seedProducts(strapi) {
  if ((await strapi.entityService.count('api::product.product')) > 0) return;
  for (const data of PRODUCTS) await strapi.entityService.create('api::product.product', { data });
  strapi.log.info(`[fields-app] ${PRODUCTS.length} products created`);
}

// fields-app: with FIELDS_APP_DOCS_RESTRICTED=true (config/docs-access.js), the documentation behind a password,
// stored where the plugin's settings page (admin panel) stores it; the plugin's own bootstrap, which runs first,
// only writes { restrictedAccess: false } when nothing is stored
async function restrictDocumentation(strapi) {
  const access = strapi.config.get('docs-access');
  if (!access.restrictedAccess) return;
  await strapi.store({ type: 'plugin', name: 'documentation' }).set({ key: 'config', value: access });
  strapi.log.info('[fields-app] documentation restricted');
}

module.exports = {
  register(/* { strapi } */) {},

  async bootstrap({ strapi }) {
    await grantPublic(strapi);
    await ensureLocale(strapi, 'fr', 'French (fr)');
    await ensureToken(strapi);
    await seedProducts(strapi);
    await restrictDocumentation(strapi);
  },
};
