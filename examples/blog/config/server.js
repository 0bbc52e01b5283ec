module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: {
    // Development defaults only: set APP_KEYS in .env for anything else.
    keys: env.array('APP_KEYS', ['blogDevKeyA', 'blogDevKeyB', 'blogDevKeyC', 'blogDevKeyD']),
  },
  webhooks: {
    populateRelations: env.bool('WEBHOOKS_POPULATE_RELATIONS', false),
  },
});
