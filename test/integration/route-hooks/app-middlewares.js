// config/middlewares.js of the hooks test project for the route-hooks suite: v4's list plus project
// middlewares in every form (`global::` with and without config, `api::`, `{ resolve }`).
module.exports = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  { name: 'global::app-order', config: { label: 'A' } },
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  { resolve: './src/middlewares/app-resolved' },
  'api::gate.api-mw',
  { name: 'global::app-order', config: { label: 'B' } },
];
