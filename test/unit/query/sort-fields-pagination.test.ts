// sort, fields and pagination as v4 reads them (its tokenizer, rules, messages and defaults), with
// its 500s as 400s.
import { describe, expect, it } from 'vitest';
import { paginationMeta, parsePagination } from '../../../src/query/pagination';
import { parseFields } from '../../../src/query/parse-fields';
import { parseSort } from '../../../src/query/parse-sort';
import type { QueryContext } from '../../../src/query/query-context';
import { fixtureModel } from '../../helpers/fixture-model';

const model = fixtureModel();
const ctx: QueryContext = { model, visibility: { globalPrivate: new Set() }, canRead: () => true, pagination: { defaultLimit: 25, maxLimit: 100, withCount: true } };
const article = model.require('api::article.article');
const sort = (s: unknown, c = ctx) => parseSort(c, article, s);
const fields = (f: unknown, ct = article) => parseFields(ctx, ct, f);

describe('sort', () => {
  it('every form', () => {
    expect(sort('title')).toEqual([{ title: 'asc' }]);
    expect(sort(' kind , views:DESC ')).toEqual([{ kind: 'asc' }, { views: 'desc' }]);
    expect(sort(',views')).toEqual([{ views: 'asc' }]);
    expect(sort(['kind:desc', 'title'])).toEqual([{ kind: 'desc' }, { title: 'asc' }]);
    expect(sort({ views: 'Desc' })).toEqual([{ views: 'desc' }]);
    expect(sort([{ kind: 'asc' }, { views: 'desc' }])).toEqual([{ kind: 'asc' }, { views: 'desc' }]);
    expect(sort('author.name:desc')).toEqual([{ author: { name: 'desc' } }]);
    expect(sort({ seo: { metaTitle: 'asc' } })).toEqual([{ seo: { metaTitle: 'asc' } }]);
    expect(sort('editorPick.author.name')).toEqual([{ editorPick: { author: { name: 'asc' } } }]);
    expect(sort('title:desc:ignored')).toEqual([{ title: 'desc' }]); // v4 reads the first two parts
    expect(sort('')).toBeUndefined();
  });
  it('v4\'s validation messages, from its tokenizer', () => {
    expect(() => sort('nope')).toThrow('Invalid parameter nope');
    expect(() => sort('author')).toThrow('Invalid parameter author');
    expect(() => sort('author:desc')).toThrow('Invalid parameter desc');
    expect(() => sort({ author: 'asc' })).toThrow('Invalid parameter asc');
    expect(() => sort(['title', { views: 'desc' }])).toThrow('Invalid parameter 0');
    expect(() => sort('blocks.body')).toThrow('Invalid parameter blocks');
    expect(() => sort('author.secret')).toThrow('Invalid parameter secret');
    expect(() => sort('createdBy.id')).toThrow('Invalid parameter createdBy');
    expect(() => sort('publish_date')).toThrow('Invalid parameter publish_date');
    expect(() => sort('author.name', { ...ctx, canRead: () => false })).toThrow('Invalid parameter author');
  });
  it('what v4 answers with a 500 is a 400', () => {
    expect(() => sort('title:up')).toThrow('Invalid order. order can only be one of asc|desc|ASC|DESC');
    expect(() => sort('views: desc')).toThrow('Invalid order');
    expect(() => sort(':desc')).toThrow('Field cannot be empty');
    expect(() => sort({ title: null })).toThrow('Invalid sort type expected object or string got null');
    expect(() => sort('title.x')).toThrow('Invalid parameter title.x');
  });
});

describe('fields', () => {
  it('names, a list, *, id; trimmed; column names read as their attribute', () => {
    expect(fields('title')).toEqual(['title']);
    expect(fields([' title', 'views ', 'title', 'id'])).toEqual(['title', 'views']);
    expect(fields('*')).toContain('scheduledAt');
    expect(fields(['title', '*'])).toContain('meta');
    expect(fields(['publish_date'])).toEqual(['publishDate']);
  });
  it('no comma splitting, and only visible scalars', () => {
    expect(() => fields('title,slug')).toThrow('Invalid parameter title,slug');
    for (const name of ['author', 'seo', 'links', 'blocks', 'cover', 'createdBy', 'nope']) expect(() => fields([name])).toThrow(`Invalid parameter ${name}`);
    expect(() => fields(['secret'], model.require('api::author.author'))).toThrow('Invalid parameter secret');
    expect(() => fields({ title: '1' })).toThrow('Invalid parameter fields');
  });
});

describe('pagination', () => {
  const cfg = { defaultLimit: 25, maxLimit: 100, withCount: true };
  const p = (raw: Record<string, unknown>, c = cfg) => parsePagination(raw, c);
  it('page mode: v4\'s floors and clamps', () => {
    expect([p({ page: '0' }).page, p({ page: '-2' }).page, p({ page: '' }).page, p({ page: null }).page]).toEqual([1, 1, 1, 1]);
    expect([p({ pageSize: '0' }).pageSize, p({ pageSize: '-1' }).pageSize, p({ pageSize: '' }).pageSize, p({ pageSize: null }).pageSize]).toEqual([1, 1, 1, 1]);
    expect(p({ pageSize: '1000' }).pageSize).toBe(100);
    expect(p({ page: '3', pageSize: '7' })).toMatchObject({ limit: 7, offset: 14 });
  });
  it('offset mode: limit -1 is maxLimit (or no limit), 0 is 1, start floors at 0', () => {
    expect(paginationMeta(p({ limit: '-1' }), 3)).toEqual({ start: 0, limit: 100, total: 3 });
    expect(p({ limit: '-1' }, { ...cfg, maxLimit: undefined as unknown as number })).toMatchObject({ limit: undefined, limitEcho: -1 });
    expect(p({ limit: '0' }).limitEcho).toBe(1);
    expect(p({ limit: '-5' }).limitEcho).toBe(1);
    expect(p({ start: '-5', limit: '2' })).toMatchObject({ start: 0, offset: 0 });
  });
  it('withCount: v4\'s spellings only', () => {
    expect(p({ withCount: 'f' }).withCount).toBe(false);
    expect(p({ withCount: '1' }).withCount).toBe(true);
    expect(() => p({ withCount: 'TRUE' })).toThrow('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
    expect(() => p({ withCount: null })).toThrow('Invalid withCount parameter');
  });
  it('what is not an integer is a 400 (v4: 500)', () => {
    for (const raw of [{ page: 'abc' }, { pageSize: '2.5' }, { start: 'x' }, { limit: '1.5' }, { page: '1e300', pageSize: '10' }]) {
      expect(() => p(raw)).toThrow(/^Invalid pagination parameter (page|pageSize|start|limit): expected an integer$/);
    }
    expect(() => p({ page: '1', limit: '2' })).toThrow('Invalid pagination parameters. Expected either start/limit or page/pageSize');
  });
});
