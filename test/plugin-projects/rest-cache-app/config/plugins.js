// The fixture app's plugins, plus strapi-plugin-rest-cache with its memory provider, configured as its
// documentation shows: articles, categories, pages and the homepage cached (authors are not), ETags and X-Cache
// headers on. REST_CACHE_DEBUG=true turns on the plugin's debug log.
module.exports = ({ env }) => ({
  graphql: {
    config: {
      endpoint: '/graphql',
      shadowCRUD: true,
      playgroundAlways: false,
      depthLimit: 7,
      amountLimit: 100,
      maxLimit: 100,
      apolloServer: {
        tracing: false,
      },
    },
  },
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET', 'peer-users-permissions-jwt-secret-not-for-production'),
    },
  },
  'rest-cache': {
    config: {
      provider: {
        name: 'memory',
        getTimeout: 500,
        options: {
          max: 32767,
        },
      },
      strategy: {
        debug: env.bool('REST_CACHE_DEBUG', false),
        enableEtag: true,
        enableXCacheHeaders: true,
        maxAge: 3600000,
        contentTypes: ['api::article.article', 'api::category.category', 'api::page.page', 'api::homepage.homepage'],
      },
    },
  },
});
