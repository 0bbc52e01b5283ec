// Kept REST answers for callers without credentials, served in front of fastify: a key, a validity check and a
// write of the stored bytes, with the headers, log line and response audit the routed answer would have had.
// Everything else (a miss, a token or user, PostgreSQL's asynchronous change token, a server closing, another
// method or path) falls through to fastify untouched. Through fastify a hit costs its routing, query-string
// parsing and hooks too, about half of what a bare node:http server needs to send the same bytes.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Ability } from '../auth/abilities';
import { auditResponse, hasResponseAuditors } from '../server/response-audit';
import { answerKey, cacheHeaders, isNotModified, REST_DOOR, type KeptAnswers } from './kept-answers';
import type { CachedAnswer } from './response-cache';

export interface FastHitOptions {
  kept: KeptAnswers;
  /** the REST prefix with its slash (`/api/`): only Content API paths are looked at */
  prefix: string;
  /** the Public role's ability when known without waiting (Access.publicAbilityNow) */
  publicAbility(): Ability | undefined;
  /** what every answer carries for this Origin: security headers, x-powered-by, CORS (as the server's hook sets them) */
  headers(origin: string | undefined): Record<string, string>;
  /** the server is closing: every request takes the routed way (its 503) */
  closing(): boolean;
  /** the request log line (strapi::logger), when on */
  logLine?(method: string, url: string, ms: number, status: number): void;
}

/** `handler` with kept answers sent before it is called (when one is there for the request) */
export function withFastHits(handler: RequestListener, o: FastHitOptions): RequestListener {
  const served = fastHit(o);
  return (req, res) => {
    if (!served(req, res)) handler(req, res);
  };
}

/** the headers of a kept answer as the routed way sends them (a 304: without content type and length) */
function headersOf(o: FastHitOptions, e: CachedAnswer, origin: string | undefined, notModified: boolean): Record<string, string | number> {
  const common = o.headers(origin);
  const headers: Record<string, string | number> = { ...common, ...cacheHeaders(o.kept, e, common.vary) };
  if (!notModified) {
    headers['content-type'] = e.contentType;
    headers['content-length'] = e.body.length;
  }
  return headers;
}

function fastHit(o: FastHitOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const method = req.method;
    const url = req.url;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || !url.startsWith(o.prefix) || req.headers.authorization !== undefined || o.closing()) return false;
    const ability = o.publicAbility();
    const key = ability && answerKey(o.kept, REST_DOOR, ability, url);
    const e = key ? o.kept.cache.hitNow(key) : undefined;
    if (!e) return false;
    const start = o.logLine ? performance.now() : 0;
    const notModified = isNotModified(method, req.headers['if-none-match'], e);
    const origin = req.headers.origin;
    // without an Origin the headers are the same for every request: made once per entry
    const headers = origin === undefined ? (notModified ? (e.headersNoOrigin304 ??= headersOf(o, e, undefined, true)) : (e.headersNoOrigin ??= headersOf(o, e, undefined, false))) : headersOf(o, e, origin, notModified);
    if (notModified) {
      res.writeHead(304, headers);
      res.end();
      o.logLine?.(method, url, performance.now() - start, 304);
      return true;
    }
    res.writeHead(e.status, headers);
    if (method === 'HEAD') res.end();
    else res.end(e.body);
    o.logLine?.(method, url, performance.now() - start, e.status);
    if (hasResponseAuditors()) auditResponse({ method, url, status: e.status, contentType: e.contentType, body: e.body });
    return true;
  };
}
