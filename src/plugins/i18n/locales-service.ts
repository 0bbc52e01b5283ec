// v4's i18n `locales` service (`strapi.plugin('i18n').service('locales')`): the rows of `i18n_locale` and
// the default locale in the core store (`plugin_i18n_default_locale`), with v4's method names and
// argument shapes, so project bootstraps written for v4 run unchanged.
import { createCoreStore } from '../../auth/core-store';
import type { Model } from '../../model/types';
import type { QueryFn } from '../../query/query-engine';
import type { Entity, Where } from '../../query/types';
import type { Database } from '../../storage/dialect';
import { transactionOrHook } from '../../storage/lifecycles';

const LOCALE = 'plugin::i18n.locale';
/** v4's first-start locale */
export const DEFAULT_LOCALE = { code: 'en', name: 'English (en)' };

export interface LocaleInput {
  code: string;
  name?: string | null;
}

export interface LocalesDeps {
  query: QueryFn;
  db: Database;
  model: Model;
}

/** how old the default locale read for the request path may get (changes made by another process) */
const DEFAULT_LOCALE_TTL_MS = 5_000;

export function createLocalesService({ query, db, model }: LocalesDeps) {
  const store = createCoreStore(db)({ type: 'plugin', name: 'i18n' });
  let cachedDefault: string | undefined;
  /** when cachedDefault was read; another process may change the default (Strapi's admin, another node) */
  let cachedAt = 0;
  let refreshing: Promise<unknown> | undefined;
  const localizedTypes = () => [...model.contentTypes.values()].filter((ct) => ct.localized);

  const service = {
    /** v4: the argument is the `where` itself (`find({ code: 'fr' })`) */
    find: (params: Where = {}) => query(LOCALE).findMany({ where: params }),
    findById: (id: number) => query(LOCALE).findOne({ where: { id } }),
    findByCode: (code: string) => query(LOCALE).findOne({ where: { code } }),
    count: (params: Where = {}) => query(LOCALE).count({ where: params }),
    create: (locale: LocaleInput) => query(LOCALE).create({ data: { ...locale } }),
    update: (params: Where, updates: Partial<LocaleInput>) => query(LOCALE).update({ where: params, data: { ...updates } }),
    /** v4: deletes every localized entry in that locale, then the locale (one transaction here) */
    async delete({ id }: { id: number }): Promise<Entity | null> {
      const found = await service.findById(id);
      if (!found) return found;
      await transactionOrHook(db, async (tx) => {
        for (const ct of localizedTypes()) await query(ct.uid, tx).deleteMany({ where: { locale: found.code } });
        await query(LOCALE, tx).delete({ where: { id } });
      });
      return found;
    },
    /** the stored default locale code (null when none was ever set) */
    async getDefaultLocale(): Promise<string | null> {
      const code = (await store.get({ key: 'default_locale' })) as string | null;
      cachedDefault = code ?? undefined;
      cachedAt = Date.now();
      return code;
    },
    async setDefaultLocale({ code }: { code: string }): Promise<void> {
      await store.set({ key: 'default_locale', value: code });
      cachedDefault = code;
      cachedAt = Date.now();
    },
    /** v4's `isDefault` flag on one locale or a list */
    async setIsDefault<T extends Entity | Entity[] | null | undefined>(locales: T): Promise<T> {
      if (locales === null || locales === undefined) return locales;
      const code = await service.getDefaultLocale();
      const mark = (l: Entity) => ({ ...l, isDefault: l.code === code });
      return (Array.isArray(locales) ? locales.map(mark) : mark(locales as Entity)) as unknown as T;
    },
    /** v4's i18n bootstrap: an `en` locale, made the default, when there is no locale at all */
    async initDefaultLocale(): Promise<void> {
      if ((await service.count()) === 0) {
        await service.create(DEFAULT_LOCALE);
        await service.setDefaultLocale({ code: DEFAULT_LOCALE.code });
      }
    },
    /** start-up: the first-start default, then the default read once for the request path */
    async ensureDefault(): Promise<void> {
      await service.initDefaultLocale();
      await service.getDefaultLocale();
    },
    /**
     * the default locale code for the request path (read at start, refreshed by set/getDefaultLocale); once it is
     * DEFAULT_LOCALE_TTL_MS old, this answer starts a re-read in the background (a change made by another process
     * is used within that time and one request)
     */
    defaultLocaleSync: () => {
      if (Date.now() - cachedAt > DEFAULT_LOCALE_TTL_MS && !refreshing) {
        refreshing = service.getDefaultLocale().catch(() => undefined).finally(() => (refreshing = undefined));
      }
      return cachedDefault ?? DEFAULT_LOCALE.code;
    },
  };
  return service;
}

export type LocalesService = ReturnType<typeof createLocalesService>;
