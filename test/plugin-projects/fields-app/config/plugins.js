module.exports = ({ env }) => ({
  // color-picker, multi-select, ckeditor and seo are enabled by being dependencies (package.json), as v4 does.
  // slugify is declared before graphql: v4 bootstraps plugins in declaration order, and slugify's GraphQL
  // extension reads the settings its own bootstrap builds (declared after graphql, v4 fails to start:
  // "Cannot read properties of undefined (reading 'admin::permission')")
  slugify: {
    enabled: true,
    config: {
      contentTypes: {
        article: { field: 'slug', references: 'title' },
        product: { field: 'slug', references: ['name'] },
      },
      slugifyWithCount: true,
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
  documentation: {
    enabled: true,
    config: {
      info: { version: '1.0.0', title: 'Fields app', description: 'The fields-app test project' },
      // fixed, so the document is the same whatever the port and environment
      servers: [{ url: 'http://localhost:1337/api', description: 'Development server' }],
      'x-strapi-config': {
        plugins: ['upload', 'users-permissions', 'slugify'],
        // the generation time is the one clock reading in the document: fixed, as a project may mutate it
        mutateDocumentation: (draft) => {
          draft.info['x-generation-date'] = '2026-01-01T00:00:00.000Z';
        },
      },
    },
  },
});
