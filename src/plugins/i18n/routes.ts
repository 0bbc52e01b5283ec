// The i18n content-API routes: the locale list, declared as v4 declares it (served from the plugin's v4 module,
// so an extension that changes it is served as changed), and, per localized type, the create-localization route
// (v4 adds it to the type's own routes, with the permission action `<uid>.createLocalization`).
import type { Model } from '../../model/types';
import type { RouteDef } from '../../rest/routes';
import { createLocalizationHandler, type CreateLocalizationDeps } from './create-localization';
import type { LocalesService } from './locales-service';

/** v4's route table (i18n/server/routes/content-api.js), below `/i18n` */
export function i18nRouters() {
  return { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/locales', handler: 'locales.listLocales' }] } };
}

/** v4's `locales` controller: a plain array, `isDefault` on each (creator fields are private) */
export function localesController(locales: LocalesService) {
  return { listLocales: async () => locales.setIsDefault(await locales.find()) };
}

/** the create-localization route of each localized type */
export function localizationRoutes(model: Model, deps: CreateLocalizationDeps): RouteDef[] {
  return model.apiTypes().filter((t) => t.localized).map((ct) => ({
    method: 'POST' as const,
    path: ct.kind === 'singleType' ? `/${ct.singularName}/localizations` : `/${ct.pluralName}/:id/localizations`,
    action: `${ct.uid}.createLocalization`,
    uid: ct.uid,
    config: {},
    handler: createLocalizationHandler(deps, ct),
  }));
}
