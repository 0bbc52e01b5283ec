'use strict';

module.exports = ({ strapi }) => ({
  async updateArticle(ctx) {
    const { title } = ctx.request.body;
    const article = await strapi.entityService.update('api::article.article', ctx.params.id, { data: { title }, fields: ['title'] });
    return { id: article.id, title: article.title };
  },

  async purge() {
    const cacheConfig = strapi.plugin('rest-cache').service('cacheConfig');
    await strapi.plugin('rest-cache').service('cacheStore').clearByUid('api::article.article');
    return {
      purged: true,
      cached: Object.fromEntries(['api::article.article', 'api::author.author', 'api::homepage.homepage'].map((uid) => [uid, cacheConfig.isCached(uid)])),
      uids: cacheConfig.getUids(),
    };
  },
});
