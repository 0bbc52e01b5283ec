// config/middlewares.js -> the settings of the v4 middlewares we map onto fastify, and the project's own
// middlewares (`global::x`, `api::a.x`, `plugin::p.x`, `{ name, config }`, `{ resolve }`), kept in their order for
// rest/route-chain.ts to load. Unknown `strapi::` names stop start-up; unknown project names stop it there.
import { ProjectError } from '../project/errors';

export interface MiddlewareSettings {
  jsonLimit: number;
  cors: { enabled: boolean; origin: string | string[]; headers: string[]; methods: string[]; credentials: boolean; maxAge?: number; expose?: string[] };
  poweredBy: string | null;
  security: boolean;
  query: Record<string, unknown>;
  public: { enabled: boolean; maxAge: number };
  favicon: { enabled: boolean; path?: string; maxAge: number };
  logger: boolean;
  /** `strapi::session`'s config when the project lists it (server/sessions.ts): ctx.session exists only then, as in v4 */
  session?: Record<string, unknown>;
  /** project middleware entries as written, in their order (resolved by rest/route-chain.ts) */
  project: unknown[];
}

const KNOWN = new Set([
  'strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query',
  'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public', 'strapi::ip', 'strapi::responseTime', 'strapi::compression',
]);

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** koa-body style sizes: 1048576, '1mb', '256kb' */
export function parseBytes(v: unknown, fallback: number): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(v) : null;
  return m ? Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]) : fallback;
}

/** `global::`, `api::`, `plugin::` names, `{ resolve }` entries and functions: the project's, not v4's own */
function isProjectMiddleware(item: unknown, name: unknown): boolean {
  if (typeof item === 'function') return true;
  if (typeof name !== 'string') return false;
  if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name !== 'string') return true; // { resolve }
  return /^(global::|api::|plugin::)/.test(name);
}

export function middlewareSettings(list: unknown, file: string): MiddlewareSettings {
  const s: MiddlewareSettings = {
    jsonLimit: 1024 * 1024,
    cors: { enabled: false, origin: '*', headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'], methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'], credentials: true },
    poweredBy: null,
    security: false,
    query: {},
    public: { enabled: false, maxAge: 60000 },
    favicon: { enabled: false, maxAge: 86400000 },
    logger: false,
    project: [],
  };
  if (!Array.isArray(list)) throw new ProjectError('config/middlewares.js must export an array', file);
  for (const item of list) {
    const name = typeof item === 'string' ? item : (item as { name?: unknown; resolve?: unknown })?.name ?? (item as { resolve?: unknown })?.resolve;
    const cfg = (typeof item === 'object' && item ? (item as { config?: Record<string, unknown> }).config : undefined) ?? {};
    if (isProjectMiddleware(item, name)) {
      s.project.push(item);
      continue;
    }
    if (typeof name !== 'string' || !KNOWN.has(name)) {
      throw new ProjectError(`middleware ${JSON.stringify(name ?? item)} is not supported by Tessera (supported: ${[...KNOWN].join(', ')}, and the project's own: global::<name>, api::<api>.<name>, plugin::<plugin>.<name>, { resolve })`, file);
    }
    switch (name) {
      case 'strapi::body':
        s.jsonLimit = parseBytes(cfg.jsonLimit, s.jsonLimit);
        break;
      case 'strapi::cors':
        s.cors = { ...s.cors, ...(cfg as Partial<MiddlewareSettings['cors']>), enabled: cfg.enabled !== false };
        break;
      case 'strapi::poweredBy':
        s.poweredBy = typeof cfg.poweredBy === 'string' ? cfg.poweredBy : 'Strapi <strapi.io>';
        break;
      case 'strapi::security':
        s.security = true;
        break;
      case 'strapi::query':
        s.query = cfg;
        break;
      case 'strapi::public':
        s.public = { enabled: true, maxAge: typeof cfg.maxAge === 'number' ? cfg.maxAge : 60000 };
        break;
      case 'strapi::favicon':
        s.favicon = { enabled: true, path: typeof cfg.path === 'string' ? cfg.path : undefined, maxAge: typeof cfg.maxAge === 'number' ? cfg.maxAge : 86400000 };
        break;
      case 'strapi::logger':
        s.logger = true;
        break;
      case 'strapi::session':
        s.session = cfg;
        break;
    }
  }
  return s;
}
