'use strict';

// Test helpers, the same on real Strapi and Tessera: the sitemap the plugin stored, and what its register and
// config did.
module.exports = {
  routes: [
    { method: 'GET', path: '/probe/sitemap', handler: 'probe.sitemap', config: { auth: false } },
    { method: 'GET', path: '/probe/config', handler: 'probe.config', config: { auth: false } },
  ],
};
