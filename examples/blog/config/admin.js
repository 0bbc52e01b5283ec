module.exports = ({ env }) => ({
  // Headless: the admin panel is neither built nor served.
  serveAdminPanel: false,
  auth: {
    secret: env('ADMIN_JWT_SECRET', 'blog-dev-admin-jwt-secret-not-for-production'),
  },
  apiToken: {
    salt: env('API_TOKEN_SALT', 'blog-dev-api-token-salt-not-for-production'),
  },
  transfer: {
    token: {
      salt: env('TRANSFER_TOKEN_SALT', 'blog-dev-transfer-token-salt-not-for-production'),
    },
  },
  flags: {
    nps: false,
    promoteEE: false,
  },
});
