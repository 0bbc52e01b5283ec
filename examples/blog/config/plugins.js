module.exports = ({ env }) => ({
  graphql: {
    config: {
      depthLimit: 10,
      maxLimit: 100,
    },
  },
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET', 'blog-dev-users-permissions-jwt-secret-not-for-production'),
    },
  },
});
