// The content types Strapi 4.26.2 itself brings (admin, upload, content-releases, users-permissions,
// i18n), exactly as v4 loads them: the `__schema__` (own attributes only) of each entry of the
// `strapi_content_types_schema` core-store row of a real 4.26.2 database. buildModel adds the implicit
// attributes (createdAt/updatedAt/createdBy/updatedBy) again. Note release-action's `locale` is an own
// attribute (the type is not localized). Top-level `indexes` (upload) and `config` are kept as v4 has
// them; `plugin::i18n.locale` gets its v4 table name `i18n_locale` explicitly.
// With these sources first, the persisted schema of the fixture app is byte-identical to v4's.
import type { ModelSource } from './build-model';
import type { RawAttribute } from './types';

/** A table v4 defines as a plain database model: no implicit attributes, not a content type. */
export interface InternalTableModel {
  uid: string;
  collectionName: string;
  attributes: Record<string, RawAttribute>;
}

const SOURCES: ModelSource[] = [
  {
    uid: 'admin::permission',
    kind: 'collectionType',
    origin: 'admin',
    modelName: 'permission',
    schema: {
      collectionName: 'admin_permissions',
      info: {
        name: 'Permission',
        description: '',
        singularName: 'permission',
        pluralName: 'permissions',
        displayName: 'Permission',
      },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        action: { type: 'string', minLength: 1, configurable: false, required: true },
        actionParameters: { type: 'json', configurable: false, required: false, default: {} },
        subject: { type: 'string', minLength: 1, configurable: false, required: false },
        properties: { type: 'json', configurable: false, required: false, default: {} },
        conditions: { type: 'json', configurable: false, required: false, default: [] },
        role: {
          configurable: false,
          type: 'relation',
          relation: 'manyToOne',
          inversedBy: 'permissions',
          target: 'admin::role',
        },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'admin::user',
    kind: 'collectionType',
    origin: 'admin',
    modelName: 'user',
    schema: {
      collectionName: 'admin_users',
      info: { name: 'User', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        firstname: { type: 'string', unique: false, minLength: 1, configurable: false, required: false },
        lastname: { type: 'string', unique: false, minLength: 1, configurable: false, required: false },
        username: { type: 'string', unique: false, configurable: false, required: false },
        email: { type: 'email', minLength: 6, configurable: false, required: true, unique: true, private: true },
        password: { type: 'password', minLength: 6, configurable: false, required: false, private: true, searchable: false },
        resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
        registrationToken: { type: 'string', configurable: false, private: true, searchable: false },
        isActive: { type: 'boolean', default: false, configurable: false, private: true },
        roles: {
          configurable: false,
          private: true,
          type: 'relation',
          relation: 'manyToMany',
          inversedBy: 'users',
          target: 'admin::role',
          collectionName: 'strapi_users_roles',
        },
        blocked: { type: 'boolean', default: false, configurable: false, private: true },
        preferedLanguage: { type: 'string', configurable: false, required: false, searchable: false },
      },
      kind: 'collectionType',
      config: { attributes: { resetPasswordToken: { hidden: true }, registrationToken: { hidden: true } } },
    },
  },
  {
    uid: 'admin::role',
    kind: 'collectionType',
    origin: 'admin',
    modelName: 'role',
    schema: {
      collectionName: 'admin_roles',
      info: { name: 'Role', description: '', singularName: 'role', pluralName: 'roles', displayName: 'Role' },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', minLength: 1, unique: true, configurable: false, required: true },
        code: { type: 'string', minLength: 1, unique: true, configurable: false, required: true },
        description: { type: 'string', configurable: false },
        users: { configurable: false, type: 'relation', relation: 'manyToMany', mappedBy: 'roles', target: 'admin::user' },
        permissions: { configurable: false, type: 'relation', relation: 'oneToMany', mappedBy: 'role', target: 'admin::permission' },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'admin::api-token',
    kind: 'collectionType',
    origin: 'admin',
    modelName: 'api-token',
    schema: {
      collectionName: 'strapi_api_tokens',
      info: {
        name: 'Api Token',
        singularName: 'api-token',
        pluralName: 'api-tokens',
        displayName: 'Api Token',
        description: '',
      },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', minLength: 1, configurable: false, required: true, unique: true },
        description: { type: 'string', minLength: 1, configurable: false, required: false, default: '' },
        type: {
          type: 'enumeration',
          enum: ['read-only', 'full-access', 'custom'],
          configurable: false,
          required: true,
          default: 'read-only',
        },
        accessKey: { type: 'string', minLength: 1, configurable: false, required: true, searchable: false },
        lastUsedAt: { type: 'datetime', configurable: false, required: false },
        permissions: {
          type: 'relation',
          target: 'admin::api-token-permission',
          relation: 'oneToMany',
          mappedBy: 'token',
          configurable: false,
          required: false,
        },
        expiresAt: { type: 'datetime', configurable: false, required: false },
        lifespan: { type: 'biginteger', configurable: false, required: false },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'admin::api-token-permission',
    kind: 'collectionType',
    origin: 'admin',
    modelName: 'api-token-permission',
    schema: {
      collectionName: 'strapi_api_token_permissions',
      info: {
        name: 'API Token Permission',
        description: '',
        singularName: 'api-token-permission',
        pluralName: 'api-token-permissions',
        displayName: 'API Token Permission',
      },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        action: { type: 'string', minLength: 1, configurable: false, required: true },
        token: {
          configurable: false,
          type: 'relation',
          relation: 'manyToOne',
          inversedBy: 'permissions',
          target: 'admin::api-token',
        },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'admin::transfer-token',
    kind: 'collectionType',
    origin: 'admin',
    modelName: 'transfer-token',
    schema: {
      collectionName: 'strapi_transfer_tokens',
      info: {
        name: 'Transfer Token',
        singularName: 'transfer-token',
        pluralName: 'transfer-tokens',
        displayName: 'Transfer Token',
        description: '',
      },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', minLength: 1, configurable: false, required: true, unique: true },
        description: { type: 'string', minLength: 1, configurable: false, required: false, default: '' },
        accessKey: { type: 'string', minLength: 1, configurable: false, required: true },
        lastUsedAt: { type: 'datetime', configurable: false, required: false },
        permissions: {
          type: 'relation',
          target: 'admin::transfer-token-permission',
          relation: 'oneToMany',
          mappedBy: 'token',
          configurable: false,
          required: false,
        },
        expiresAt: { type: 'datetime', configurable: false, required: false },
        lifespan: { type: 'biginteger', configurable: false, required: false },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'admin::transfer-token-permission',
    kind: 'collectionType',
    origin: 'admin',
    modelName: 'transfer-token-permission',
    schema: {
      collectionName: 'strapi_transfer_token_permissions',
      info: {
        name: 'Transfer Token Permission',
        description: '',
        singularName: 'transfer-token-permission',
        pluralName: 'transfer-token-permissions',
        displayName: 'Transfer Token Permission',
      },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        action: { type: 'string', minLength: 1, configurable: false, required: true },
        token: {
          configurable: false,
          type: 'relation',
          relation: 'manyToOne',
          inversedBy: 'permissions',
          target: 'admin::transfer-token',
        },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'plugin::upload.file',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'file',
    schema: {
      collectionName: 'files',
      info: { singularName: 'file', pluralName: 'files', displayName: 'File', description: '' },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', configurable: false, required: true },
        alternativeText: { type: 'string', configurable: false },
        caption: { type: 'string', configurable: false },
        width: { type: 'integer', configurable: false },
        height: { type: 'integer', configurable: false },
        formats: { type: 'json', configurable: false },
        hash: { type: 'string', configurable: false, required: true },
        ext: { type: 'string', configurable: false },
        mime: { type: 'string', configurable: false, required: true },
        size: { type: 'decimal', configurable: false, required: true },
        url: { type: 'string', configurable: false, required: true },
        previewUrl: { type: 'string', configurable: false },
        provider: { type: 'string', configurable: false, required: true },
        provider_metadata: { type: 'json', configurable: false },
        related: { type: 'relation', relation: 'morphToMany', configurable: false },
        folder: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'files', private: true },
        folderPath: { type: 'string', min: 1, required: true, private: true, searchable: false },
      },
      kind: 'collectionType',
      indexes: [{ name: 'upload_files_folder_path_index', columns: ['folder_path'], type: null }, { name: 'upload_files_created_at_index', columns: ['created_at'], type: null }, { name: 'upload_files_updated_at_index', columns: ['updated_at'], type: null }, { name: 'upload_files_name_index', columns: ['name'], type: null }, { name: 'upload_files_size_index', columns: ['size'], type: null }, { name: 'upload_files_ext_index', columns: ['ext'], type: null }],
    },
  },
  {
    uid: 'plugin::upload.folder',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'folder',
    schema: {
      collectionName: 'upload_folders',
      info: { singularName: 'folder', pluralName: 'folders', displayName: 'Folder' },
      options: {},
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', min: 1, required: true },
        pathId: { type: 'integer', unique: true, required: true },
        parent: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'children' },
        children: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.folder', mappedBy: 'parent' },
        files: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.file', mappedBy: 'folder' },
        path: { type: 'string', min: 1, required: true },
      },
      kind: 'collectionType',
      indexes: [{ name: 'upload_folders_path_id_index', columns: ['path_id'], type: 'unique' }, { name: 'upload_folders_path_index', columns: ['path'], type: 'unique' }],
    },
  },
  {
    uid: 'plugin::content-releases.release',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'release',
    schema: {
      collectionName: 'strapi_releases',
      info: { singularName: 'release', pluralName: 'releases', displayName: 'Release' },
      options: { draftAndPublish: false },
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', required: true },
        releasedAt: { type: 'datetime' },
        scheduledAt: { type: 'datetime' },
        timezone: { type: 'string' },
        status: { type: 'enumeration', enum: ['ready', 'blocked', 'failed', 'done', 'empty'], required: true },
        actions: {
          type: 'relation',
          relation: 'oneToMany',
          target: 'plugin::content-releases.release-action',
          mappedBy: 'release',
        },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'plugin::content-releases.release-action',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'release-action',
    schema: {
      collectionName: 'strapi_release_actions',
      info: { singularName: 'release-action', pluralName: 'release-actions', displayName: 'Release Action' },
      options: { draftAndPublish: false },
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        type: { type: 'enumeration', enum: ['publish', 'unpublish'], required: true },
        entry: { type: 'relation', relation: 'morphToOne', configurable: false },
        contentType: { type: 'string', required: true },
        locale: { type: 'string' },
        release: { type: 'relation', relation: 'manyToOne', target: 'plugin::content-releases.release', inversedBy: 'actions' },
        isEntryValid: { type: 'boolean' },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'plugin::users-permissions.permission',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'permission',
    schema: {
      collectionName: 'up_permissions',
      info: {
        name: 'permission',
        description: '',
        singularName: 'permission',
        pluralName: 'permissions',
        displayName: 'Permission',
      },
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        action: { type: 'string', required: true, configurable: false },
        role: {
          type: 'relation',
          relation: 'manyToOne',
          target: 'plugin::users-permissions.role',
          inversedBy: 'permissions',
          configurable: false,
        },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'plugin::users-permissions.role',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'role',
    schema: {
      collectionName: 'up_roles',
      info: { name: 'role', description: '', singularName: 'role', pluralName: 'roles', displayName: 'Role' },
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', minLength: 3, required: true, configurable: false },
        description: { type: 'string', configurable: false },
        type: { type: 'string', unique: true, configurable: false },
        permissions: {
          type: 'relation',
          relation: 'oneToMany',
          target: 'plugin::users-permissions.permission',
          mappedBy: 'role',
          configurable: false,
        },
        users: {
          type: 'relation',
          relation: 'oneToMany',
          target: 'plugin::users-permissions.user',
          mappedBy: 'role',
          configurable: false,
        },
      },
      kind: 'collectionType',
    },
  },
  {
    uid: 'plugin::users-permissions.user',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'user',
    schema: {
      collectionName: 'up_users',
      info: { name: 'user', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
      options: { draftAndPublish: false, timestamps: true },
      attributes: {
        username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
        email: { type: 'email', minLength: 6, configurable: false, required: true },
        provider: { type: 'string', configurable: false },
        password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
        resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
        confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
        confirmed: { type: 'boolean', default: false, configurable: false },
        blocked: { type: 'boolean', default: false, configurable: false },
        role: {
          type: 'relation',
          relation: 'manyToOne',
          target: 'plugin::users-permissions.role',
          inversedBy: 'users',
          configurable: false,
        },
      },
      kind: 'collectionType',
      config: {
        attributes: { resetPasswordToken: { hidden: true }, confirmationToken: { hidden: true }, provider: { hidden: true } },
      },
    },
  },
  {
    uid: 'plugin::i18n.locale',
    kind: 'collectionType',
    origin: 'plugin',
    modelName: 'locale',
    schema: {
      info: {
        singularName: 'locale',
        pluralName: 'locales',
        collectionName: 'locales',
        displayName: 'Locale',
        description: '',
      },
      options: { draftAndPublish: false },
      pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
      attributes: {
        name: { type: 'string', min: 1, max: 50, configurable: false },
        code: { type: 'string', unique: true, configurable: false },
      },
      kind: 'collectionType',
      collectionName: 'i18n_locale',
    },
  },
];

/** The built-in v4 content types, in the order v4 registers them (admin first, then plugins). */
export function internalModelSources(): ModelSource[] {
  return structuredClone(SOURCES);
}

/**
 * `strapi::core-store` and `webhook`: registered by @strapi/strapi as database models ahead of every
 * content type, so they are the first two tables of v4's persisted schema.
 */
export function internalTableModels(): InternalTableModel[] {
  return [
    {
      uid: 'strapi::core-store',
      collectionName: 'strapi_core_store_settings',
      attributes: {
        key: { type: 'string' },
        value: { type: 'text' },
        type: { type: 'string' },
        environment: { type: 'string' },
        tag: { type: 'string' },
      },
    },
    {
      uid: 'webhook',
      collectionName: 'strapi_webhooks',
      attributes: {
        name: { type: 'string' },
        url: { type: 'text' },
        headers: { type: 'json' },
        events: { type: 'json' },
        enabled: { type: 'boolean' },
      },
    },
  ];
}

/**
 * v4's own bookkeeping tables, created outside its model (not part of the persisted schema):
 * `strapi_migrations` (umzug log of the project's database/migrations files) and
 * `strapi_database_schema` (the last synced schema and its hash).
 */
export function bookkeepingTableModels(): InternalTableModel[] {
  return [
    {
      uid: 'strapi::migrations',
      collectionName: 'strapi_migrations',
      attributes: { name: { type: 'string' }, time: { type: 'datetime' } },
    },
    {
      uid: 'strapi::database-schema',
      collectionName: 'strapi_database_schema',
      attributes: { schema: { type: 'json' }, time: { type: 'datetime' }, hash: { type: 'string' } },
    },
  ];
}
