// The i18n content-API routes: the locale list and, per localized type, the create-localization route
// (v4 adds it to the type's own routes, with the permission action `<uid>.createLocalization`).
import type { Model } from '../../model/types';
import type { RouteDef } from '../../rest/routes';
import { createLocalizationHandler, type CreateLocalizationDeps } from './create-localization';
import type { LocalesService } from './locales-service';

export function i18nRoutes(model: Model, locales: LocalesService, deps: CreateLocalizationDeps): RouteDef[] {
  const routes: RouteDef[] = [{
    method: 'GET',
    path: '/i18n/locales',
    action: 'plugin::i18n.locales.listLocales',
    config: {},
    // v4: a plain array, `isDefault` on each (creator fields are private)
    handler: async () => locales.setIsDefault(await locales.find()),
  }];
  for (const ct of model.apiTypes().filter((t) => t.localized)) {
    routes.push({
      method: 'POST',
      path: ct.kind === 'singleType' ? `/${ct.singularName}/localizations` : `/${ct.pluralName}/:id/localizations`,
      action: `${ct.uid}.createLocalization`,
      uid: ct.uid,
      config: {},
      handler: createLocalizationHandler(deps, ct),
    });
  }
  return routes;
}
