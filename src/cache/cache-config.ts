// config/api.js `responseCache` (docs/configuration.md), and the TESSERA_RESPONSE_CACHE switch that overrides
// its `enabled` without touching the project (benchmarks, a quick check that the cache is not the cause).
import { ProjectError } from '../project/errors';
import { DEFAULT_CACHE_CONFIG, type ResponseCacheConfig } from './response-cache';

/** `switch`: TESSERA_RESPONSE_CACHE of the project's environment (`<dir>/.env` included) */
export function responseCacheConfig(raw: unknown, switchValue: string | undefined, file: string): ResponseCacheConfig {
  const o = raw === undefined || raw === null ? {} : raw;
  if (typeof o === 'boolean') return { ...DEFAULT_CACHE_CONFIG, enabled: switched(switchValue) ?? o };
  if (typeof o !== 'object' || Array.isArray(o)) throw new ProjectError('api.responseCache must be an object or a boolean', file);
  const { enabled = true, maxBytes = DEFAULT_CACHE_CONFIG.maxBytes, cacheControl = DEFAULT_CACHE_CONFIG.cacheControl } = o as Record<string, unknown>;
  if (typeof enabled !== 'boolean') throw new ProjectError('api.responseCache.enabled must be true or false', file);
  if (typeof maxBytes !== 'number' || !Number.isFinite(maxBytes) || maxBytes < 0) throw new ProjectError('api.responseCache.maxBytes must be a number of bytes (0 or more)', file);
  if (cacheControl !== false && typeof cacheControl !== 'string') throw new ProjectError('api.responseCache.cacheControl must be a string or false', file);
  return { enabled: switched(switchValue) ?? enabled, maxBytes, cacheControl };
}

function switched(value: string | undefined): boolean | undefined {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  return undefined;
}
