module.exports = ({ env }) => ({
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET', 'blog-dev-users-permissions-jwt-secret-not-for-production'),
    },
  },
});
