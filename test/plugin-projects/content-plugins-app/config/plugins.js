const probe = require('../src/probe-log');

module.exports = ({ env }) => ({
  // Declared before graphql: v4 runs plugin bootstraps in this order, and the navigation's GraphQL queries
  // (extension.use() in its bootstrap) exist only if that runs before graphql's bootstrap builds the schema.
  // Stored in the plugin store on first start (the store wins afterwards, as the plugin reads it)
  navigation: {
    enabled: true,
    config: {
      contentTypes: ['api::article.article', 'api::page.page'],
      contentTypesNameFields: { 'api::article.article': ['title'], 'api::page.page': ['title'] },
      contentTypesPopulate: { 'api::article.article': ['categories'] },
      additionalFields: ['audience', { name: 'icon', type: 'string', label: 'Icon', enabled: true }],
      allowedLevels: 3,
      gql: { navigationItemRelated: ['Article', 'Page'] },
    },
  },
  // every second instead of every minute, so a test sees the scheduled actions run; the hooks log what they get
  publisher: {
    enabled: true,
    config: {
      actions: { syncFrequency: '*/1 * * * * *' },
      hooks: {
        beforePublish: ({ uid, entity }) => probe.add('publisher.beforePublish', { uid, entity }),
        afterPublish: ({ uid, entity }) => probe.add('publisher.afterPublish', { uid, id: entity.id }),
        beforeUnpublish: ({ uid, entity }) => probe.add('publisher.beforeUnpublish', { uid, entity }),
        afterUnpublish: ({ uid, entity }) => probe.add('publisher.afterUnpublish', { uid, id: entity.id }),
      },
    },
  },
  'strapi-plugin-populate-deep': {
    config: {
      defaultDepth: 3,
    },
  },
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
});
