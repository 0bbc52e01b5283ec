// The i18n plugin's `locales` service (the part project bootstraps call) and its first-start default.
import type { QueryFn } from '../../query/query-engine';
import type { Database } from '../../storage/dialect';

const LOCALE = 'plugin::i18n.locale';
const DEFAULT_KEY = 'plugin_i18n_default_locale';

export function createLocalesService(query: QueryFn, db: Database) {
  let cachedDefault: string | undefined;
  const service = {
    find: (params: { where?: Record<string, unknown> } = {}) => query(LOCALE).findMany({ where: params.where, orderBy: 'id' }),
    findById: (id: number) => query(LOCALE).findOne({ where: { id } }),
    findByCode: (code: string) => query(LOCALE).findOne({ where: { code } }),
    count: (params: { where?: Record<string, unknown> } = {}) => query(LOCALE).count({ where: params.where }),
    create: (locale: { code: string; name?: string }) => query(LOCALE).create({ data: { code: locale.code, name: locale.name ?? locale.code } }),
    async getDefaultLocale(): Promise<string> {
      const row = await db.get<{ value: string }>('SELECT value FROM strapi_core_store_settings WHERE key = ?', [DEFAULT_KEY]);
      cachedDefault = row ? (JSON.parse(row.value) as string) : 'en';
      return cachedDefault;
    },
    /** the default locale code, read once at start and refreshed by setDefaultLocale */
    defaultLocaleSync: () => cachedDefault ?? 'en',
    async setDefaultLocale({ code }: { code: string }): Promise<void> {
      await db.transaction(async (tx) => {
        const n = await tx.run('UPDATE strapi_core_store_settings SET value = ? WHERE key = ?', [JSON.stringify(code), DEFAULT_KEY]);
        if (!n.changes) await tx.run("INSERT INTO strapi_core_store_settings (key, value, type, environment, tag) VALUES (?, ?, 'string', '', '')", [DEFAULT_KEY, JSON.stringify(code)]);
      });
      cachedDefault = code;
    },
    /** v4's i18n bootstrap: an `en` locale and default on first start */
    async ensureDefault(): Promise<void> {
      if ((await service.count()) === 0) {
        await service.create({ code: 'en', name: 'English (en)' });
        await service.setDefaultLocale({ code: 'en' });
      }
      await service.getDefaultLocale();
    },
  };
  return service;
}

export type LocalesService = ReturnType<typeof createLocalesService>;
