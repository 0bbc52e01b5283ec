// The `admin::api-token` service as v4 project code calls it (`strapi.service('admin::api-token')`),
// following @strapi/admin 4.26.2 (dist/server/index.js, api-token service): the secret is 128 random
// bytes as 256 hex chars, shown once; the database keeps HMAC-SHA512(key = admin.apiToken.salt) of it.
import crypto from 'node:crypto';
import type { QueryFn } from '../query/query-engine';
import type { Entity, Where } from '../query/types';
import { NotFoundError, ValidationError } from '../errors';

export const API_TOKEN_UID = 'admin::api-token';
export const API_TOKEN_PERMISSION_UID = 'admin::api-token-permission';

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';
export const API_TOKEN_TYPES: readonly ApiTokenType[] = ['read-only', 'full-access', 'custom'];

const DAY_IN_MS = 24 * 60 * 60 * 1000;
/** v4 `API_TOKEN_LIFESPANS`: the only lifespans the service accepts. */
export const API_TOKEN_LIFESPANS = { UNLIMITED: null, DAYS_7: 7 * DAY_IN_MS, DAYS_30: 30 * DAY_IN_MS, DAYS_90: 90 * DAY_IN_MS } as const;

/** v4 `SELECT_FIELDS`: never `accessKey`. */
const SELECT_FIELDS = ['id', 'name', 'description', 'lastUsedAt', 'type', 'lifespan', 'expiresAt', 'createdAt', 'updatedAt'];
const POPULATE_FIELDS = ['permissions'];

export interface ApiTokenAttributes {
  name: string;
  description?: string;
  type?: ApiTokenType;
  /** null (unlimited) or 7, 30 or 90 days in milliseconds */
  lifespan?: number | null;
  /** custom tokens only: content-API actions such as `api::article.article.find` */
  permissions?: string[] | null;
}

/** A token as the service returns it (v4 shape); `lifespan` is a biginteger, read back as a string. */
export interface ApiToken extends Entity {
  name: string;
  description: string | null;
  type: ApiTokenType;
  lastUsedAt: string | null;
  lifespan: string | number | null;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** action strings (flattened), or the populated rows where v4 returns them unflattened */
  permissions?: unknown;
}

export interface ApiTokenServiceDeps {
  query: QueryFn;
  /** `admin.apiToken.salt`; empty: tokens can be neither created nor checked */
  salt: string;
  log?: { warn(msg: string): void };
  /** the content-API actions a custom token may name (v4 validates against its action registry); unchecked when absent or undefined */
  validActions?: () => Iterable<string> | undefined;
}

const isCustom = (type: unknown) => type === 'custom';

function flattenPermissions<T extends Entity | null>(token: T): T {
  if (!token) return token;
  const perms = token.permissions;
  return { ...token, permissions: Array.isArray(perms) ? perms.map((p) => (p as { action: string }).action) : perms };
}

function assertValidLifespan(lifespan: unknown): void {
  if (lifespan === null || lifespan === undefined) return;
  if (typeof lifespan !== 'number' || !(Object.values(API_TOKEN_LIFESPANS) as unknown[]).includes(lifespan)) {
    // v4's message, line break and indentation included
    throw new ValidationError(`lifespan must be one of the following values: \n      ${Object.values(API_TOKEN_LIFESPANS).join(', ')}`);
  }
}

function expirationFields(lifespan: unknown): { lifespan: number | null; expiresAt: number | null } {
  const valid = typeof lifespan === 'number' && Number.isFinite(lifespan) && lifespan > 0;
  if (!valid && lifespan !== null && lifespan !== undefined) throw new ValidationError('lifespan must be a positive number or null');
  return { lifespan: (lifespan as number) || null, expiresAt: lifespan ? Date.now() + (lifespan as number) : null };
}

export function createApiTokenService(deps: ApiTokenServiceDeps) {
  const { query, salt } = deps;
  const tokens = () => query(API_TOKEN_UID);
  const tokenPermissions = () => query(API_TOKEN_PERMISSION_UID);

  function assertCustomTokenPermissionsValidity(type: unknown, permissions: unknown): void {
    const empty = permissions === null || permissions === undefined || (Array.isArray(permissions) && permissions.length === 0);
    if (!isCustom(type) && !empty) throw new ValidationError('Non-custom tokens should not reference permissions');
    if (isCustom(type) && !Array.isArray(permissions)) throw new ValidationError('Missing permissions attribute for custom token');
    const known = deps.validActions?.();
    if (isCustom(type) && known) {
      const valid = new Set(known);
      const invalid = [...new Set(permissions as unknown[])].filter((p) => !valid.has(p as string));
      if (invalid.length) throw new ValidationError(`Unknown permissions provided: ${invalid.join(', ')}`);
    }
  }

  function assertAttributes(attrs: Partial<ApiTokenAttributes>, creating: boolean): void {
    if (creating || attrs.name !== undefined) {
      if (typeof attrs.name !== 'string' || attrs.name.trim() === '') throw new ValidationError('name must be a non-empty string');
    }
    if ((creating || attrs.type !== undefined) && attrs.type !== undefined && !API_TOKEN_TYPES.includes(attrs.type)) {
      throw new ValidationError(`type must be one of the following values: ${API_TOKEN_TYPES.join(', ')}`);
    }
  }

  async function actionsOf(id: number): Promise<string[]> {
    const rows = await tokenPermissions().findMany({ where: { token: { id } }, select: ['action'], orderBy: 'id' });
    return rows.map((r) => r.action as string);
  }

  const service = {
    /** HMAC-SHA512 of the plain key with the salt, hex (what `strapi_api_tokens.access_key` holds) */
    hash(accessKey: string): string {
      if (!salt) throw new Error('Missing apiToken.salt. Please set apiToken.salt in config/admin.js');
      return crypto.createHmac('sha512', salt).update(accessKey).digest('hex');
    },

    checkSaltIsDefined(): void {
      if (!salt) {
        throw new Error(
          'Missing apiToken.salt. Please set apiToken.salt in config/admin.js (ex: you can generate one using Node with `crypto.randomBytes(16).toString(\'base64\')`).\n'
          + 'For security reasons, prefer storing the secret in an environment variable and read it in config/admin.js. See https://docs.strapi.io/developer-docs/latest/setup-deployment-guides/configurations/optional/environment.html#configuration-using-environment-variables.',
        );
      }
    },

    /** The new token with its plain `accessKey`: the only time it is ever returned. */
    async create(attributes: ApiTokenAttributes): Promise<ApiToken & { accessKey: string }> {
      const accessKey = crypto.randomBytes(128).toString('hex');
      assertAttributes(attributes, true);
      assertCustomTokenPermissionsValidity(attributes.type, attributes.permissions);
      assertValidLifespan(attributes.lifespan);
      const { permissions, ...rest } = attributes;
      const created = (await tokens().create({
        select: SELECT_FIELDS,
        populate: POPULATE_FIELDS,
        data: { ...rest, accessKey: service.hash(accessKey), ...expirationFields(attributes.lifespan) },
      })) as ApiToken;
      const result: ApiToken & { accessKey: string } = { ...created, accessKey };
      if (isCustom(attributes.type)) {
        for (const action of [...new Set(permissions ?? [])]) {
          await tokenPermissions().create({ data: { action, token: created.id } });
        }
        result.permissions = await actionsOf(created.id);
      }
      return result;
    },

    /** A new secret for an existing token: `{ id, accessKey }` (plain), the old one stops working. */
    async regenerate(id: number): Promise<{ id: number; accessKey: string }> {
      const accessKey = crypto.randomBytes(128).toString('hex');
      const updated = await tokens().update({ select: ['id', 'accessKey'], where: { id }, data: { accessKey: service.hash(accessKey) } });
      if (!updated) throw new NotFoundError('The provided token id does not exist');
      return { ...updated, id: updated.id, accessKey };
    },

    async getBy(where: Where = {}): Promise<ApiToken | null> {
      if (Object.keys(where).length === 0) return null;
      const token = await tokens().findOne({ select: SELECT_FIELDS, populate: POPULATE_FIELDS, where });
      return flattenPermissions(token) as ApiToken | null;
    },

    async exists(where: Where = {}): Promise<boolean> {
      return !!(await service.getBy(where));
    },

    getById(id: number): Promise<ApiToken | null> {
      return service.getBy({ id });
    },

    getByName(name: string): Promise<ApiToken | null> {
      return service.getBy({ name });
    },

    /** Every token, by name, without secrets. */
    async list(): Promise<ApiToken[]> {
      const rows = await tokens().findMany({ select: SELECT_FIELDS, populate: POPULATE_FIELDS, orderBy: { name: 'ASC' } });
      return rows.map((t) => flattenPermissions(t) as ApiToken);
    },

    /** Deletes the token; returns it as it was (permissions unflattened, as v4), or null. */
    async revoke(id: number): Promise<ApiToken | null> {
      return (await tokens().delete({ select: SELECT_FIELDS, populate: POPULATE_FIELDS, where: { id } })) as ApiToken | null;
    },

    async update(id: number, attributes: Partial<ApiTokenAttributes>): Promise<ApiToken> {
      const original = await tokens().findOne({ where: { id } }); // v4: not populated, so a type change to custom needs permissions
      if (!original) throw new NotFoundError('Token not found');
      assertAttributes(attributes, false);
      const changingTypeToCustom = isCustom(attributes.type) && !isCustom(original.type);
      if (attributes.permissions || changingTypeToCustom) {
        assertCustomTokenPermissionsValidity(
          attributes.type || original.type,
          attributes.permissions || original.permissions,
        );
      }
      assertValidLifespan(attributes.lifespan);
      const { permissions, ...data } = attributes;
      const updated = (await tokens().update({ select: SELECT_FIELDS, where: { id }, data }))!;
      if (isCustom(updated.type) && permissions) {
        const current = await actionsOf(id);
        const wanted = [...new Set(permissions)];
        for (const action of current.filter((a) => !wanted.includes(a))) {
          await tokenPermissions().deleteMany({ where: { action, token: { id } } });
        }
        for (const action of wanted.filter((a) => !current.includes(a))) {
          await tokenPermissions().create({ data: { action, token: id } });
        }
      } else if (!isCustom(updated.type)) {
        await tokenPermissions().deleteMany({ where: { token: { id } } });
      }
      return { ...(updated as ApiToken), permissions: await actionsOf(id) };
    },

    /** The actions a token grants (custom tokens; empty for the others). */
    async permissionsOf(token: { id: number }): Promise<string[]> {
      return actionsOf(token.id);
    },
  };
  return service;
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
