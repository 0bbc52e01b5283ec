// FIELDS_APP_DOCS_RESTRICTED=true puts the documentation behind the password "docs-secret" (src/index.js stores
// this where the documentation plugin's settings page stores it)
module.exports = ({ env }) => ({
  restrictedAccess: env.bool('FIELDS_APP_DOCS_RESTRICTED', false),
  password: '$2a$10$7T8DYNAoHJu9Mp2SOlIFlOHJTMXOz5j/a5l8d4r4Sj/9FJ9cIse6K',
});
