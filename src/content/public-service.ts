// `strapi.service('api::x.x')`: the core service with v4's parameter style, so project code may call
// `find({ filters, populate, sort, pagination })`. Queries from the core controllers arrive already
// validated and are not parsed twice. Every method is async, as in v4: a mistake in the parameters rejects
// the promise (project code's `.catch` sees it) rather than throwing at the call.
import type { ContentType, Model } from '../model/types';
import type { CoreService } from './core-service';
import { isRestQuery, parseRestQuery, type QueryContext, type RestQuery } from '../query/parse-query';

type Params = Record<string, unknown> | RestQuery | undefined;

export function createPublicService(core: CoreService, ct: ContentType, trusted: QueryContext) {
  const parse = (p: Params, action: 'find' | 'findOne' | 'write'): RestQuery => (isRestQuery(p) ? p : parseRestQuery(trusted, ct, (p ?? {}) as Record<string, unknown>, action));
  const dataOf = (p: Params) => ((p as { data?: Record<string, unknown> } | undefined)?.data ?? {});
  if (ct.kind === 'singleType') {
    return {
      find: async (p?: Params) => core.findSingle(parse(p, 'findOne')),
      createOrUpdate: async (p: Params, q?: RestQuery) => core.createOrUpdate(isRestQuery(q) ? (p as Record<string, unknown>) : dataOf(p), q ?? parse(p, 'write')),
      delete: async (p?: Params) => core.deleteSingle(parse(p, 'write')),
      // what the core controllers call
      findSingle: (q: RestQuery) => core.findSingle(q),
      deleteSingle: (q: RestQuery) => core.deleteSingle(q),
    };
  }
  return {
    find: async (p?: Params) => core.find(parse(p, 'find')),
    findOne: async (id: number, p?: Params) => core.findOne(Number(id), parse(p, 'findOne')),
    create: async (p: Params, q?: RestQuery) => core.create(isRestQuery(q) ? (p as Record<string, unknown>) : dataOf(p), q ?? parse(p, 'write')),
    update: async (id: number, p: Params, q?: RestQuery) => core.update(Number(id), isRestQuery(q) ? (p as Record<string, unknown>) : dataOf(p), q ?? parse(p, 'write')),
    delete: async (id: number, p?: Params) => core.delete(Number(id), parse(p, 'write')),
  };
}

export type PublicService = ReturnType<typeof createPublicService>;

export function isModelService(model: Model, uid: string): boolean {
  const ct = model.get(uid);
  return !!ct && ct.kind !== 'component';
}
