// The media library state v4 keeps in its core store: the upload settings (`plugin_upload_settings`:
// sizeOptimization, responsiveDimensions, autoOrientation), the view configuration, and the "API Uploads"
// folder every Content-API upload goes into (`plugin_upload_api-folder`).
import { createCoreStore, type CoreStoreScope } from '../../auth/core-store';
import type { Model } from '../../model/types';
import type { QueryFn } from '../../query/query-engine';
import type { Database } from '../../storage/dialect';
import { transactionOrHook } from '../../storage/lifecycles';
import type { ImageSettings } from './image';

export const FOLDER_UID = 'plugin::upload.folder';
const API_FOLDER_NAME = 'API Uploads';
/** folders' path ids are MAX + 1: one new folder at a time across processes */
const PATH_ID_LOCK = 'upload_folders.path_id';

const DEFAULTS = {
  settings: { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false },
  view_configuration: { pageSize: 10, sort: 'createdAt:DESC' },
} as const;

export interface Folder {
  id: number;
  path: string;
}

export function createLibrary(db: Database, model: Model, query: QueryFn) {
  const store: CoreStoreScope = createCoreStore(db)({ type: 'plugin', name: 'upload' });
  let pendingFolder: Promise<Folder> | null = null;

  async function rootFolderNamed(name: string): Promise<boolean> {
    const parent = model.require(FOLDER_UID).attributes.parent;
    const jt = parent.kind === 'relation' ? parent.joinTable : undefined;
    const q = (s: string) => db.dialect.quote(s);
    const notChild = jt ? ` AND id NOT IN (SELECT ${q(jt.joinColumn)} FROM ${q(jt.name)} WHERE ${q(jt.inverseJoinColumn)} IS NOT NULL)` : '';
    return Boolean(await db.get(`SELECT id FROM ${q(model.require(FOLDER_UID).collectionName)} WHERE name = ?${notChild}`, [name]));
  }

  async function createApiFolder(): Promise<Folder> {
    let name = API_FOLDER_NAME;
    for (let i = 1; await rootFolderNamed(name); i++) name = `${API_FOLDER_NAME} (${i})`;
    const folder = await transactionOrHook(db, async (tx) => {
      await tx.lock([PATH_ID_LOCK]);
      const row = await tx.get<{ m: number | null }>(`SELECT MAX(path_id) AS m FROM ${db.dialect.quote(model.require(FOLDER_UID).collectionName)}`);
      const pathId = Number(row?.m ?? 0) + 1;
      return query(FOLDER_UID, tx).create({ data: { name, pathId, path: `/${pathId}` }, select: ['path'] });
    });
    await store.set({ key: 'api-folder', value: { id: folder.id } });
    return { id: folder.id, path: String(folder.path) };
  }

  return {
    /** first start: v4's default settings and view configuration, completing what is there */
    async bootstrap(): Promise<void> {
      for (const [key, defaults] of Object.entries(DEFAULTS)) {
        const current = (await store.get({ key })) as Record<string, unknown> | null;
        if (current && Object.keys(defaults).every((k) => Object.prototype.hasOwnProperty.call(current, k))) continue;
        await store.set({ key, value: { ...defaults, ...(current ?? {}) } });
      }
    },
    async getSettings(): Promise<ImageSettings> {
      const s = ((await store.get({ key: 'settings' })) ?? {}) as Partial<ImageSettings>;
      return { ...DEFAULTS.settings, ...s };
    },
    async setSettings(value: Partial<ImageSettings>): Promise<void> {
      await store.set({ key: 'settings', value });
    },
    getConfiguration: () => store.get({ key: 'view_configuration' }),
    setConfiguration: (value: unknown) => store.set({ key: 'view_configuration', value }),
    /** the "API Uploads" folder, created on first use (one creation at a time) */
    async apiUploadFolder(): Promise<Folder> {
      const stored = (await store.get({ key: 'api-folder' })) as { id?: unknown } | null;
      const id = Number(stored?.id);
      if (Number.isSafeInteger(id)) {
        const folder = await query(FOLDER_UID).findOne({ where: { id }, select: ['path'] });
        if (folder) return { id: folder.id, path: String(folder.path) };
      }
      pendingFolder ??= createApiFolder().finally(() => { pendingFolder = null; });
      return pendingFolder;
    },
  };
}

export type Library = ReturnType<typeof createLibrary>;
