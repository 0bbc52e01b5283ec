'use strict';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tag = (xml, name) => (xml.match(new RegExp(`<${name}>([^<]*)</${name}>`)) || [])[1];

// The sitemap as the plugin stored it (its query service), read after a little wait: the lifecycle that rebuilds it
// after a write does not wait for the cache row. Its entries come from queries run in parallel, so their order is
// not stable: they are answered sorted; a lastmod written since the server started is a clock reading (masked).
module.exports = {
  async sitemap(ctx) {
    await sleep(Number(ctx.query.wait ?? 300));
    const query = strapi.plugin('sitemap').service('query');
    const sitemap = await query.getSitemap('default', 0, ['id', 'sitemap_string', 'type', 'delta', 'link_count']);
    if (!sitemap) {
      ctx.body = { sitemap: null };
      return;
    }
    const xml = sitemap.sitemap_string;
    const startedAt = strapi.config.get('custom.startedAt');
    const urls = (xml.match(/<url>[\s\S]*?<\/url>/g) || []).map((url) => {
      const lastmod = tag(url, 'lastmod');
      const links = [...url.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]*)" href="([^"]*)"\/>/g)]
        .map(([, lang, href]) => `${lang} ${href}`)
        .sort();
      return {
        loc: tag(url, 'loc'),
        changefreq: tag(url, 'changefreq'),
        priority: tag(url, 'priority'),
        ...(lastmod === undefined ? {} : { lastmod: new Date(lastmod) >= startedAt ? '<since start>' : lastmod }),
        ...(links.length ? { links } : {}),
      };
    });
    urls.sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
    const cache = await query.getSitemapCache('default');
    ctx.body = {
      type: sitemap.type,
      delta: sitemap.delta,
      linkCount: sitemap.link_count,
      head: xml.slice(0, xml.indexOf('<urlset')),
      urls,
      // the cached entries per type (ids), and whether the cache belongs to this sitemap
      cache: cache && {
        ids: Object.fromEntries(Object.entries(cache.sitemap_json).map(([uid, byId]) => [uid, Object.keys(byId).map(Number).sort((a, b) => a - b)])),
        ofThisSitemap: cache.sitemap_id === sitemap.id,
      },
    };
  },

  async config(ctx) {
    ctx.body = {
      config: strapi.config.get('plugin.sitemap'),
      withExcludeField: Object.keys(strapi.contentTypes)
        .filter((uid) => 'sitemap_exclude' in strapi.contentTypes[uid].attributes)
        .sort(),
      excludeField: strapi.contentTypes['api::article.article'].attributes.sitemap_exclude,
    };
  },
};
