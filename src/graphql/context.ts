// What every resolver of one request shares: the caller, and which relation field nodes the reads populated.
import type { Auth } from '../auth/authenticate';
import type { RelationLoader } from './read-loader';
import type { PlanState } from './read-plan';

export interface GraphqlContext extends PlanState {
  auth: Auth;
  /** aliased relation variants, loaded after the reads (created on first use) */
  loader?: RelationLoader;
}
