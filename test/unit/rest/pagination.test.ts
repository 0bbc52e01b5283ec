import { describe, expect, it } from 'vitest';
import { paginationMeta, parsePagination } from '../../../src/query/pagination';

const cfg = { defaultLimit: 25, maxLimit: 100, withCount: true };

describe('pagination (v4 rules)', () => {
  it('defaults to page 1 of defaultLimit', () => {
    const p = parsePagination(undefined, cfg);
    expect([p.mode, p.page, p.pageSize, p.limit, p.offset]).toEqual(['page', 1, 25, 25, 0]);
    expect(paginationMeta(p, 53)).toEqual({ page: 1, pageSize: 25, pageCount: 3, total: 53 });
  });
  it('clamps pageSize to maxLimit and to at least 1', () => {
    expect(parsePagination({ pageSize: '1000' }, cfg).pageSize).toBe(100);
    expect(parsePagination({ pageSize: '0' }, cfg).pageSize).toBe(1);
    expect(parsePagination({ page: '-3' }, cfg).page).toBe(1);
  });
  it('offset mode: limit -1 is maxLimit, or unlimited without one', () => {
    const p = parsePagination({ limit: '-1' }, cfg);
    expect(paginationMeta(p, 8)).toEqual({ start: 0, limit: 100, total: 8 });
    const q = parsePagination({ start: '5', limit: '-1' }, { ...cfg, maxLimit: undefined });
    expect([q.limit, q.offset, q.limitEcho]).toEqual([undefined, 5, -1]);
  });
  it('withCount=false drops the totals', () => {
    expect(paginationMeta(parsePagination({ withCount: 'false', pageSize: '2' }, cfg), undefined)).toEqual({ page: 1, pageSize: 2 });
  });
  it('rejects mixing modes, a bad withCount, and non-numbers with 400s', () => {
    expect(() => parsePagination({ page: '1', start: '0' }, cfg)).toThrow('Invalid pagination parameters. Expected either start/limit or page/pageSize');
    expect(() => parsePagination({ withCount: 'x' }, cfg)).toThrow('Invalid withCount parameter');
    expect(() => parsePagination({ page: 'abc' }, cfg)).toThrow(/Invalid pagination parameter page/);
  });
});
