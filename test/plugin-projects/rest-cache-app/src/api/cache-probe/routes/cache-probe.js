'use strict';

// A write that project code makes with strapi.entityService, outside the routes rest-cache watches (its purge
// middlewares sit on the core routes of the cached types only), and the plugin's services as project code calls
// them (lifecycles that purge the cache by hand).
module.exports = {
  routes: [
    {
      method: 'POST',
      path: '/cache-probe/articles/:id',
      handler: 'cache-probe.updateArticle',
    },
    {
      method: 'POST',
      path: '/cache-probe/purge',
      handler: 'cache-probe.purge',
    },
  ],
};
