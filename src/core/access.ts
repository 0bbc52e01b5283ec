// Auth wiring for one instance: the api-token service, the role abilities, the authenticator (API tokens,
// then the users-permissions JWT once the plugin configures it), the users-permissions first-start setup,
// and the caches they keep fresh through write listeners. `rest` is what the HTTP pipeline uses.
import type { Logger } from 'pino';
import type { Model } from '../model/types';
import type { Project } from '../project/load-project';
import type { QueryFn, WriteListener } from '../query/query-engine';
import type { Database } from '../storage/dialect';
import type { Access } from '../rest/access';
import { createAbilityCache } from '../auth/abilities';
import { createApiTokenService } from '../auth/api-token-service';
import { createAuthenticator, type Auth, type JwtAuthenticator } from '../auth/authenticate';
import { createJwtStrategy, UP_USER_UID } from '../auth/jwt-strategy';
import type { JwtOptions } from '../auth/jwt';
import { createPasswordChanges } from '../auth/password-changes';
import { authorize, canFind } from '../auth/permissions';
import { ensureUsersPermissions } from '../auth/users-permissions-bootstrap';
import { createCoreStore } from '../auth/core-store';

export interface AccessDeps {
  project: Project;
  model: Model;
  db: Database;
  query: QueryFn;
  log: Logger;
  listeners: WriteListener[];
}

export interface JwtConfig {
  secret(): string;
  options(): JwtOptions;
  /** advanced setting `email_confirmation` */
  emailConfirmation(): Promise<boolean>;
}

/** media carries no permission of its own in v4 (its sanitizer only looks at `relation` attributes) */
const ALWAYS_READABLE = new Set(['plugin::upload.file']);

export function createAccess(d: AccessDeps) {
  const salt = d.project.config.get<string | undefined>('admin.apiToken.salt', undefined) ?? process.env.API_TOKEN_SALT;
  let knownActions: ReadonlySet<string> | undefined;
  const apiTokens = createApiTokenService({ query: d.query, salt: salt ?? '', log: d.log, validActions: () => knownActions });
  const abilities = createAbilityCache({ query: d.query });
  const store = createCoreStore(d.db);
  const passwordChanges = createPasswordChanges(d.db, store);
  const userType = d.model.get(UP_USER_UID);
  // read when asked: register() may add private attributes to the user type (the model is completed in place after it)
  const privateFields = {
    [Symbol.iterator]: () => (userType ? Object.values(userType.attributes).filter((a) => a.private || (a.kind === 'scalar' && a.type === 'password')).map((a) => a.name) : [])[Symbol.iterator](),
  };
  let jwt: (JwtAuthenticator & { onWrite: WriteListener }) | undefined;
  const jwtProxy: JwtAuthenticator = {
    authenticate: (bearer) => (jwt ? jwt.authenticate(bearer) : Promise.resolve({ kind: 'none', reason: 'Missing or invalid credentials' })),
  };
  const authenticator = createAuthenticator({ query: d.query, apiTokens, abilities, jwt: jwtProxy, log: d.log });
  const notifyWrite = (uid: string) => { for (const l of d.listeners) l(uid); };
  d.listeners.push(authenticator.onWrite, abilities.onWrite, (uid) => jwt?.onWrite(uid));

  const rest: Access = {
    authenticate: (header) => authenticator.authenticate(header),
    authorize: (auth, action) => authorize(auth, action),
    canRead(auth: Auth, uid: string) {
      return ALWAYS_READABLE.has(uid) || canFind(auth, uid);
    },
    publicAbilityNow: () => abilities.publicNow(),
  };
  return {
    rest,
    apiTokens,
    abilities,
    store,
    passwordChanges,
    /** called by the users-permissions plugin: from then on, bearers that are not API tokens are verified as its JWTs */
    useJwt(config: JwtConfig) {
      jwt = createJwtStrategy({
        query: d.query, abilities, passwordChanges, privateFields,
        secret: config.secret, options: config.options, emailConfirmation: config.emailConfirmation,
      });
    },
    /** the content-API actions of every route (custom API tokens may only name these, as in v4) */
    setKnownActions(actions: Iterable<string>) {
      knownActions = new Set(actions);
    },
    /** tell the caches about a write that did not go through `strapi.query` (entity service, document service) */
    notifyWrite,
    async onPasswordSet(uid: string, id: number) {
      if (uid === UP_USER_UID) await passwordChanges.record(id);
      notifyWrite(uid);
    },
    async bootstrap() {
      if (!salt) d.log.warn('admin.apiToken.salt is not set (config/admin.js or API_TOKEN_SALT): API tokens cannot be used');
      await ensureUsersPermissions({ query: d.query, store });
      await passwordChanges.ensureTable();
      abilities.clear();
    },
    async close() {
      await authenticator.close();
    },
  };
}

export type CoreAccess = ReturnType<typeof createAccess>;
