// The i18n plugin: locales (`strapi.plugin('i18n').service('locales')`, the default locale on first start),
// the content-API routes (`GET /api/i18n/locales`, `POST .../localizations`), and what localized types get
// on writes and reads (`content`: locale check, sibling sync, `meta.availableLocales`), which the core
// services call.
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import type { Auth } from '../../auth/authenticate';
import type { ContentType } from '../../model/types';
import type { LocalizedContent } from '../../content/core-service';
import type { EntryUploads } from '../../rest/entry-uploads';
import { maxJsonDepth } from '../../json-nesting';
import { createLocalesService, type LocalesService } from './locales-service';
import { createLocalizedContent, validLocale, type LocalizedContentDeps } from './localized-content';
import { copyNonLocalized, nonLocalizedNames } from './non-localized';
import { i18nRouters, localesController, localizationRoutes } from './routes';
import { v4Controllers } from '../v4/v4-controllers';

export interface I18nPlugin extends TesseraPlugin {
  locales: LocalesService;
  content: LocalizedContent;
}

type SchemaLike = { pluginOptions?: Record<string, unknown>; attributes?: Record<string, { type: string }>; uid?: string };

/** `uploads`: the upload plugin's part in multipart bodies on `POST .../localizations` (asked for lazily) */
export function createI18nPlugin(ctx: PluginContext, opts: { uploads?: () => EntryUploads | undefined } = {}): I18nPlugin {
  const locales = createLocalesService({ query: ctx.query, db: ctx.db, model: ctx.model });
  const deps: LocalizedContentDeps = {
    db: ctx.db, model: ctx.model, query: ctx.query, defaultLocale: locales.defaultLocaleSync, warn: (m) => ctx.log.warn(m), lifecycles: ctx.lifecycles,
    maxJsonDepth: maxJsonDepth((key) => ctx.project.config.get(key, undefined)),
  };
  const content = createLocalizedContent(deps);
  const isLocalized = (schema: SchemaLike | undefined) => (schema?.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n?.localized === true;
  const ctOf = (schema: SchemaLike): ContentType | undefined => (schema.uid ? ctx.model.get(schema.uid) : undefined);
  // the parts of v4's `content-types` service project code uses
  const contentTypes = {
    isLocalizedContentType: (schema: SchemaLike) => isLocalized(schema),
    getNonLocalizedAttributes: (schema: SchemaLike) => nonLocalizedNames((ctOf(schema)?.attributes ? Object.fromEntries(Object.entries(ctOf(schema)!.attributes).map(([n, a]) => [n, a.raw])) : schema.attributes) ?? {}),
    copyNonLocalizedAttributes: (schema: SchemaLike, entry: Record<string, unknown>) => {
      const ct = ctOf(schema);
      return ct ? copyNonLocalized(ctx.model, ct, entry) : {};
    },
    getValidLocale: (locale: unknown) => validLocale(deps, ctx.db, locale),
  };
  const visibility = { globalPrivate: new Set(ctx.project.config.get<string[]>('api.responses.privateAttributes', [])) };
  return {
    name: 'i18n',
    locales,
    content,
    services: { locales, 'content-types': contentTypes },
    v4: { routes: i18nRouters(), controllers: v4Controllers({ locales: localesController(locales) }) },
    routes: () => localizationRoutes(ctx.model, {
      ...deps,
      visibility,
      canRead: (req, uid) => ctx.access.rest.canRead(req.state.auth as Auth, uid),
      localeExists: async (code) => !!(await locales.findByCode(code)),
      uploads: opts.uploads,
    }),
    bootstrap: () => locales.ensureDefault(),
  };
}
