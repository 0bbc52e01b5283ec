// The i18n plugin: locales (`strapi.plugin('i18n').service('locales')`) and the default locale on first start.
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import { createLocalesService, type LocalesService } from './locales-service';

export interface I18nPlugin extends TesseraPlugin {
  locales: LocalesService;
}

export function createI18nPlugin(ctx: PluginContext): I18nPlugin {
  const locales = createLocalesService(ctx.query, ctx.db);
  return {
    name: 'i18n',
    locales,
    services: { locales },
    bootstrap: () => locales.ensureDefault(),
  };
}
