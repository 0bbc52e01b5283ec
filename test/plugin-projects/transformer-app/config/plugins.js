// The fixture app's plugins, plus strapi-plugin-transformer configured as most projects use it: no `attributes`
// wrapper and no `data` wrapper around relations. TRANSFORMER_KEEP_DATA_KEY=true keeps the `data` wrappers (the
// plugin's other common setting), so one project records both.
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
  transformer: {
    enabled: true,
    config: {
      responseTransforms: {
        removeAttributesKey: true,
        removeDataKey: !env.bool('TRANSFORMER_KEEP_DATA_KEY', false),
      },
    },
  },
});
