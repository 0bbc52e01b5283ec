module.exports = ({ env }) => ({
  // Merged into the plugin's defaults as v4 merges plugin config (lodash defaultsDeep: a list is merged item by
  // item, so `excludedTypes` replaces the first of the defaults only); GET /api/probe/config shows the result.
  // autoGenerate: the sitemap is rebuilt by lifecycles after writes (with the plugin's cache, on by default).
  sitemap: {
    enabled: true,
    config: {
      autoGenerate: true,
      excludedTypes: ['api::author.author'],
      allowedFields: ['id', 'uid'],
    },
  },
  graphql: {
    config: {
      endpoint: '/graphql',
      shadowCRUD: true,
      playgroundAlways: false,
      depthLimit: 7,
      amountLimit: 100,
      // 4.26.x no longer reads `amountLimit` (dead key); the cap it meant is `maxLimit`.
      // Without maxLimit, GraphQL pageSize/limit are unbounded (limit: -1 returns everything).
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
