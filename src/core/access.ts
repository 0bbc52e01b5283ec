// Auth wiring for one instance: the api-token service, the authenticator, the permission checker,
// the users-permissions first-start setup, and the caches they keep fresh through write listeners.
import type { Logger } from 'pino';
import type { Project } from '../project/load-project';
import type { QueryFn, WriteListener } from '../query/query-engine';
import type { Access } from '../rest/access';
import { createApiTokenService } from '../auth/api-token-service';
import { createAuthenticator, type Auth } from '../auth/authenticate';
import { createPermissionChecker } from '../auth/permissions';
import { ensureUsersPermissions } from '../auth/users-permissions-bootstrap';

export interface AccessDeps {
  project: Project;
  query: QueryFn;
  log: Logger;
  listeners: WriteListener[];
}

/** components and media carry no permission of their own in v4 */
const ALWAYS_READABLE = new Set(['plugin::upload.file']);

export function createAccess(d: AccessDeps) {
  const salt = d.project.config.get<string | undefined>('admin.apiToken.salt', undefined) ?? process.env.API_TOKEN_SALT;
  const apiTokens = createApiTokenService({ query: d.query, salt: salt ?? '', log: d.log });
  const authenticator = createAuthenticator({ query: d.query, apiTokens, log: d.log });
  const permissions = createPermissionChecker({ query: d.query });
  d.listeners.push(authenticator.onWrite, permissions.onWrite);
  const rest: Access = {
    authenticate: (header) => authenticator.authenticate(header),
    authorize: (auth, action) => permissions.authorize(auth, action),
    canRead(auth: Auth, uid: string) {
      if (ALWAYS_READABLE.has(uid)) return true;
      try {
        permissions.authorize(auth, `${uid}.find`);
        return true;
      } catch {
        return false;
      }
    },
  };
  return {
    rest,
    apiTokens,
    async bootstrap() {
      if (!salt) d.log.warn('admin.apiToken.salt is not set (config/admin.js or API_TOKEN_SALT): API tokens cannot be used');
      await ensureUsersPermissions({ query: d.query });
      await permissions.load?.();
    },
    async close() {
      await authenticator.close?.();
    },
  };
}

export type CoreAccess = ReturnType<typeof createAccess>;
