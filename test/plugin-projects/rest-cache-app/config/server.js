// The fixture app's server settings, plus a cron task (on with REST_CACHE_CRON=true) that renames article 1 every
// second through strapi.entityService: a write no route of rest-cache watches.
module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: {
    keys: env.array('APP_KEYS', ['peerKeyA1', 'peerKeyB2', 'peerKeyC3', 'peerKeyD4']),
  },
  webhooks: {
    populateRelations: env.bool('WEBHOOKS_POPULATE_RELATIONS', false),
  },
  cron: {
    enabled: env.bool('REST_CACHE_CRON', false),
    tasks: {
      renameArticle: {
        task: async ({ strapi }) => {
          await strapi.entityService.update('api::article.article', 1, { data: { title: `cron ${Date.now()}` } });
        },
        options: { rule: '* * * * * *' },
      },
    },
  },
});
