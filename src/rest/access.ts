import type { Ability } from '../auth/abilities';
import type { Auth } from '../auth/authenticate';

/** Who is calling and what they may touch; implemented by auth/, used by the REST pipeline. */
export interface Access {
  authenticate(authorization: string | undefined): Promise<Auth>;
  /** throws UnauthorizedError / ForbiddenError */
  authorize(auth: Auth, action: string): void;
  /** may this caller `find` entries of `uid` (relations in filters, sort and populate) */
  canRead(auth: Auth, uid: string): boolean;
  /** what authenticate() would give a request without credentials, when known without waiting (the response cache) */
  publicAbilityNow?(): Ability | undefined;
}
