// The response cache as the HTTP front doors use it: keys, the lookup before an answer is built, keeping
// the answer built, and sending a kept one (with its ETag, and 304 to a client that has it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ability } from '../auth/abilities';
import type { Model } from '../model/types';
import type { Database } from '../storage/dialect';
import { answerTables } from './answer-tables';
import { matchesIfNoneMatch, permissionsKey, ResponseCache, type CachedAnswer, type ResponseCacheConfig } from './response-cache';

export interface KeptAnswers {
  cache: ResponseCache;
  /** false while answers may not be kept: read lifecycle hooks (a kept answer would skip them), signed media urls */
  allowed(): boolean;
  /** in-memory state answers depend on besides the data (i18n's default locale) */
  stamp(): string;
  /** the tables an answer about these types can have read (answer-tables.ts) */
  tables(uids: readonly string[]): readonly string[];
}

/**
 * The door of REST answers: the request's path and query string name the route (fastify gives one GET route
 * per path), so the key needs no route and an answer can be found before routing (fast-hits.ts).
 */
export const REST_DOOR = 'rest';

/** the key of an answer, or null when this caller's answers are not kept */
export function answerKey(k: KeptAnswers, door: string, ability: Ability, request: string): string | null {
  if (!k.cache.usable || !k.allowed()) return null;
  const who = permissionsKey(ability);
  return who === null ? null : `${door}\u0000${who}\u0000${k.stamp()}\u0000${request}`;
}

/**
 * Whether the client has the answer: its `If-None-Match` names the ETag, on a GET or HEAD (RFC 9110 13.1.2; a
 * GraphQL POST is answered in full) of a 2xx answer (13.2.1: a kept 404 stays a 404).
 */
export function isNotModified(method: string | undefined, ifNoneMatch: string | string[] | undefined, e: CachedAnswer): boolean {
  return (method === 'GET' || method === 'HEAD') && e.status >= 200 && e.status < 300 && typeof ifNoneMatch === 'string' && matchesIfNoneMatch(ifNoneMatch, e.etag);
}

/** ETag, Cache-Control and Vary of a kept answer; `vary`: what the answer varies by already (CORS's Origin) */
export function cacheHeaders(k: KeptAnswers, e: CachedAnswer, vary: unknown): Record<string, string> {
  const headers: Record<string, string> = { etag: e.etag };
  const cc = k.cache.config.cacheControl;
  if (cc) headers['cache-control'] = cc;
  // the answer depends on the caller's credentials: a shared cache must not hand one caller's to another
  headers.vary = vary ? `${String(vary)}, Authorization` : 'Authorization';
  return headers;
}

/** sends a kept (or just kept) answer: its ETag, and 304 without the body when the client has it */
export function sendKept(k: KeptAnswers, req: FastifyRequest, reply: FastifyReply, e: CachedAnswer): FastifyReply {
  reply.headers(cacheHeaders(k, e, reply.getHeader('vary')));
  if (isNotModified(req.method, req.headers['if-none-match'], e)) return reply.code(304).send();
  return reply.code(e.status).type(e.contentType).send(e.body);
}

/** the cache of one instance; undefined when it is off or the database cannot tell every change */
export function createKeptAnswers(db: Database, model: Model, config: ResponseCacheConfig, o: Pick<KeptAnswers, 'allowed' | 'stamp'>): KeptAnswers | undefined {
  const cache = new ResponseCache(db, config);
  if (!cache.usable) return undefined;
  return { cache, allowed: o.allowed, stamp: o.stamp, tables: (uids) => answerTables(model, uids) };
}
