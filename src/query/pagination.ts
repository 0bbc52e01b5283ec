// v4's pagination rules (core-api/service/pagination.js and convert-query-params), with one change: a
// value that is not an integer (`page=abc`, `limit=2.5`) is a 400 instead of v4's 500.
import { ValidationError } from '../errors';

export interface PaginationConfig {
  defaultLimit: number;
  maxLimit?: number;
  withCount: boolean;
}

export interface Pagination {
  mode: 'page' | 'offset';
  page: number;
  pageSize: number;
  start: number;
  /** -1: no limit (offset mode without maxLimit) */
  limitEcho: number;
  withCount: boolean;
  /** storage limit/offset */
  limit?: number;
  offset: number;
}

const WITH_COUNT = new Map<unknown, boolean>([
  [true, true], ['true', true], ['t', true], ['1', true], [1, true],
  [false, false], ['false', false], ['f', false], ['0', false], [0, false],
]);

/** lodash toNumber as v4 uses it ('' and null are 0), refusing what v4 would fail on later */
function int(v: unknown, name: string): number {
  const n = typeof v === 'number' ? v : v === null ? 0 : Number(typeof v === 'string' ? v : String(v));
  if (!Number.isSafeInteger(n)) throw new ValidationError(`Invalid pagination parameter ${name}: expected an integer`);
  return n;
}

/** v4 (lodash `has`): a key given without a value still counts */
function has(p: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(p, key);
}

export function parsePagination(raw: unknown, cfg: PaginationConfig): Pagination {
  const p = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  // v4 reports mixed modes before a bad withCount (test/golden/error-precedence.*)
  const isPage = has(p, 'page') || has(p, 'pageSize');
  const isOffset = has(p, 'start') || has(p, 'limit');
  if (isPage && isOffset) throw new ValidationError('Invalid pagination parameters. Expected either start/limit or page/pageSize');
  let withCount = cfg.withCount;
  if (has(p, 'withCount')) {
    const w = p.withCount === undefined ? false : WITH_COUNT.get(p.withCount);
    if (w === undefined) throw new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
    withCount = w;
  }
  const maxLimit = cfg.maxLimit !== undefined && cfg.maxLimit > 0 ? cfg.maxLimit : undefined;
  if (isOffset) {
    const start = Math.max(0, p.start ? int(p.start, 'start') : 0);
    let limit = p.limit === undefined ? cfg.defaultLimit : int(p.limit, 'limit');
    if (limit === -1) limit = maxLimit ?? -1;
    else if (maxLimit !== undefined && limit > maxLimit) limit = maxLimit;
    else limit = Math.max(1, limit);
    return { mode: 'offset', page: 0, pageSize: 0, start, limitEcho: limit, withCount, limit: limit === -1 ? undefined : limit, offset: start };
  }
  const page = Math.max(1, p.page ? int(p.page, 'page') : 1);
  let pageSize = p.pageSize === undefined ? cfg.defaultLimit : Math.max(1, int(p.pageSize, 'pageSize'));
  if (maxLimit !== undefined && pageSize > maxLimit) pageSize = maxLimit;
  if (!Number.isSafeInteger((page - 1) * pageSize)) throw new ValidationError('Invalid pagination parameter page: expected an integer');
  return { mode: 'page', page, pageSize, start: 0, limitEcho: 0, withCount, limit: pageSize, offset: (page - 1) * pageSize };
}

export function paginationMeta(p: Pagination, total: number | undefined): Record<string, number> {
  if (p.mode === 'offset') {
    return total === undefined ? { start: p.start, limit: p.limitEcho } : { start: p.start, limit: p.limitEcho, total };
  }
  if (total === undefined) return { page: p.page, pageSize: p.pageSize };
  return { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(total / p.pageSize), total };
}
