// The GraphQL door's way into the shared pipeline: what a caller may read (its QueryContext, with GraphQL's
// page sizes), v4 parameters validated by the shared parser (kept per caller and shape, as REST keeps them),
// and the core service of each model.
import type { Logger } from 'pino';
import type { Auth } from '../auth/authenticate';
import type { CoreService } from '../content/core-service';
import { createContentReads, type ContentReads } from '../content/content-reads';
import type { ContentType, Model } from '../model/types';
import type { PaginationConfig } from '../query/pagination';
import type { QueryContext, RestQuery } from '../query/parse-query';
import type { Access } from '../rest/access';
import { ForbiddenError } from '../errors';
import type { GraphqlConfig } from './config';
import { listLimit } from './config';

export interface GraphqlDoorDeps {
  model: Model;
  config: GraphqlConfig;
  access: Access;
  queryContextFor(auth: Auth, paging: PaginationConfig): QueryContext;
  coreService(uid: string): CoreService;
  /** config/api.js `rest.jsonReads`: the JSON read target answers where it applies */
  jsonReads: boolean;
  log: Logger;
}

export class GraphqlDoor {
  readonly model: Model;
  readonly config: GraphqlConfig;
  readonly log: Logger;
  readonly jsonReads: boolean;
  /** GraphQL's page sizes: defaultLimit, and maxLimit tightened by amountLimit */
  readonly paging: PaginationConfig;
  /** reads the door makes for itself (aliased relations): every parent at once */
  readonly unbounded: PaginationConfig;
  private readonly reads = new Map<string, ContentReads>();

  constructor(private readonly deps: GraphqlDoorDeps) {
    this.model = deps.model;
    this.config = deps.config;
    this.log = deps.log;
    this.jsonReads = deps.jsonReads;
    this.paging = { defaultLimit: deps.config.defaultLimit, maxLimit: listLimit(deps.config), withCount: false };
    this.unbounded = { defaultLimit: deps.config.defaultLimit, withCount: false };
  }

  /** v4's resolver auth: the caller's role (or token) must hold `action`; both failures are FORBIDDEN in v4 */
  authorize(auth: Auth, action: string): void {
    try {
      this.deps.access.authorize(auth, action);
    } catch {
      throw new ForbiddenError('Forbidden access');
    }
  }

  canRead(auth: Auth, uid: string): boolean {
    return this.deps.access.canRead(auth, uid);
  }

  queryContext(auth: Auth, paging = this.paging): QueryContext {
    return this.deps.queryContextFor(auth, paging);
  }

  core(uid: string): CoreService {
    return this.deps.coreService(uid);
  }

  /** `raw` validated for the caller, the same object for the same (caller, action, parameters) */
  query(auth: Auth, ct: ContentType, raw: Record<string, unknown>, action: 'find' | 'findOne'): RestQuery {
    let reads = this.reads.get(ct.uid);
    if (!reads) this.reads.set(ct.uid, (reads = createContentReads(this.core(ct.uid), ct, false)));
    const caller = auth.kind === 'none' ? undefined : auth.ability;
    return reads.sharedQuery(() => this.queryContext(auth), caller, raw, action);
  }
}
