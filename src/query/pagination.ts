// v4's pagination rules (core-api/service/pagination.js), with non-numbers a 400 instead of v4's 500.
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

const WITH_COUNT: Record<string, boolean> = { t: true, '1': true, true: true, f: false, '0': false, false: false };

function int(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(String(v));
  if (!Number.isFinite(n)) throw new ValidationError(`Invalid pagination parameter ${name}: expected a number`);
  return Math.trunc(n);
}

export function parsePagination(raw: unknown, cfg: PaginationConfig): Pagination {
  const p = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  let withCount = cfg.withCount;
  if (p.withCount !== undefined) {
    const w = WITH_COUNT[String(p.withCount)];
    if (w === undefined) throw new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
    withCount = w;
  }
  const isPage = p.page !== undefined || p.pageSize !== undefined;
  const isOffset = p.start !== undefined || p.limit !== undefined;
  if (isPage && isOffset) throw new ValidationError('Invalid pagination parameters. Expected either start/limit or page/pageSize');
  const clamp = (n: number) => (cfg.maxLimit !== undefined && cfg.maxLimit > 0 && n > cfg.maxLimit ? cfg.maxLimit : n);
  if (isOffset) {
    const start = Math.max(0, int(p.start, 'start') ?? 0);
    let limit = int(p.limit, 'limit') ?? cfg.defaultLimit;
    if (limit === -1) limit = cfg.maxLimit !== undefined && cfg.maxLimit > 0 ? cfg.maxLimit : -1;
    else limit = clamp(Math.max(1, limit));
    return { mode: 'offset', page: 0, pageSize: 0, start, limitEcho: limit, withCount, limit: limit === -1 ? undefined : limit, offset: start };
  }
  const page = Math.max(1, int(p.page, 'page') ?? 1);
  const pageSize = clamp(Math.max(1, int(p.pageSize, 'pageSize') ?? cfg.defaultLimit));
  return { mode: 'page', page, pageSize, start: 0, limitEcho: 0, withCount, limit: pageSize, offset: (page - 1) * pageSize };
}

export function paginationMeta(p: Pagination, total: number | undefined): Record<string, number> {
  if (p.mode === 'offset') {
    return total === undefined ? { start: p.start, limit: p.limitEcho } : { start: p.start, limit: p.limitEcho, total };
  }
  if (total === undefined) return { page: p.page, pageSize: p.pageSize };
  return { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(total / p.pageSize), total };
}
