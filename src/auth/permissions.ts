// May this caller run this action: v4's `verify` of the api-token strategy (@strapi/admin) and of the
// users-permissions strategy, over the Ability authenticate() computed for the request.
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { Auth } from './authenticate';

export { isReadScope, UP_PERMISSION_UID, UP_ROLE_UID } from './abilities';

/**
 * Throws UnauthorizedError (401) or ForbiddenError (403) exactly where v4 does. `action` '' is a route without a
 * scope (a plugin route whose handler is a function): v4 lets signed-in users and full-access tokens through.
 */
export function authorize(auth: Auth, action: string): void {
  if (action === '') return authorizeUnscoped(auth);
  switch (auth.kind) {
    case 'none':
      throw new UnauthorizedError(auth.reason);
    case 'public':
      // v4: with no public permission at all the users-permissions strategy does not authenticate
      if (auth.ability.size === 0) throw new UnauthorizedError('Missing or invalid credentials');
      if (!auth.ability.can(action)) throw new ForbiddenError('Forbidden');
      return;
    case 'api-token':
    case 'user':
      if (!auth.ability.can(action)) throw new ForbiddenError('Forbidden');
      return;
    default:
      throw new UnauthorizedError('Missing or invalid credentials');
  }
}

function authorizeUnscoped(auth: Auth): void {
  if (auth.kind === 'user') return;
  if (auth.kind === 'api-token') {
    if (auth.token.type === 'full-access') return;
    throw new ForbiddenError('Forbidden');
  }
  throw new UnauthorizedError(auth.kind === 'none' ? auth.reason : 'Unauthorized');
}

/** May the caller `find` entries of `uid` (populate, filters and sort through relations); v4 asks verify({ scope }). */
export function canFind(auth: Auth, uid: string): boolean {
  return auth.kind !== 'none' && auth.ability.can(`${uid}.find`);
}
