// The SQL a where tree compiles to, and the query-string limits. The results of these shapes are checked
// against v4 by the golden files and against an oracle by test/property; here: that a relation filter is
// one uncorrelated subquery, that v4's NULL-row cases add a NOT IN only when needed, that values are bound.
import { describe, expect, it } from 'vitest';
import { compileWhere } from '../../../src/storage/compile-where';
import { SqlBuilder } from '../../../src/storage/sql-builder';
import { sqliteDialect } from '../../../src/storage/sqlite/sqlite-dialect';
import { createQueryStringParser } from '../../../src/server/query-string';
import { fixtureModel } from '../../helpers/fixture-model';

const model = fixtureModel();
const article = model.require('api::article.article');
function sql(where: Record<string, unknown>): { text: string; params: unknown[] } {
  const b = new SqlBuilder(sqliteDialect);
  return { text: compileWhere(b, model, article, 't0', where), params: b.params };
}

describe('compile-where', () => {
  it('a positive relation filter is one uncorrelated IN (SELECT ...), values bound', () => {
    const { text, params } = sql({ author: { name: { $eq: "x' OR 1=1 --" } } });
    // no `article_id IS NOT NULL`: the IN is never negated, and it would keep SQLite off the target's links index
    expect(text).toMatch(/^t0\.id IN \(SELECT t\d+\.`article_id` FROM `articles_author_links` t\d+ JOIN `authors` t\d+ ON \S+ = \S+ WHERE \(t\d+\.`name` = \?\)\)$/);
    expect(text).not.toContain('t0.id =');
    expect(params).toContain("x' OR 1=1 --");
    expect(text).not.toContain('OR 1=1');
  });
  it('a negation stays inside the subquery (v4: a related row that does not match)', () => {
    const { text } = sql({ $not: { author: { name: 'x' } } });
    expect(text).toMatch(/^t0\.id IN \(SELECT .* WHERE \(NOT \(t\d+\.`name` = \?\)\)\)$/);
  });
  it('a condition TRUE on the all-NULL row also matches entries without related rows', () => {
    expect(sql({ author: { name: { $null: true } } }).text).toMatch(/^t0\.id IN \(.*\) OR t0\.id NOT IN \(.*\)$/);
    expect(sql({ $not: { author: { name: { $notNull: true } } } }).text).toMatch(/ OR t0\.id NOT IN /);
    expect(sql({ author: { name: { $ne: 'x' } } }).text).not.toMatch(/NOT IN/);
  });
  it('whether related rows exist at all is a single (NOT) IN', () => {
    expect(sql({ author: { $null: true } }).text).toMatch(/^t0\.id NOT IN \(SELECT [^()]*\)$/);
    expect(sql({ categories: { id: { $notNull: true } } }).text).toMatch(/^t0\.id IN \(SELECT [^()]*\)$/);
    expect(sql({ $not: { author: null } }).text).toMatch(/^t0\.id IN /);
    // components and media keep their link filters (field, type) inside the subquery
    const seo = sql({ seo: { $null: true } });
    expect(seo.text).toMatch(/\.field = \? AND t\d+\.component_type = \?\)$/);
    expect(seo.params).toEqual(['seo', 'shared.seo']);
  });
  it('LIKE patterns escape the wildcards they are given', () => {
    const { text, params } = sql({ title: { $contains: '50%_off\\' } });
    expect(text).toContain("ESCAPE '\\'");
    expect(params).toEqual(['%50\\%\\_off\\\\%']);
  });
  it('v4 forms from project code: lists as "any of", empty lists, $ne with a list', () => {
    expect(sql({ title: { $eq: ['a', 'b'] } }).text).toBe('(t0.`title` = ?) OR (t0.`title` = ?)');
    expect(sql({ id: { $in: [] } }).text).toBe('1 = 0');
    expect(sql({ title: { $ne: ['a', 'b'] } }).text).toBe('(t0.`title` <> ?) OR (t0.`title` <> ?)');
    expect(sql({ $and: [], $or: [{}] }).text).toBe('');
  });
});

describe('query string limits (before qs runs)', () => {
  const parser = createQueryStringParser({});
  it('parses as v4 does (strictNullHandling, arrays up to 100)', () => {
    expect(parser.parse('filters[title]&sort[0]=a')).toEqual({ filters: { title: null }, sort: ['a'] });
    expect(parser.rejection(parser.parse('a=1'))).toBeUndefined();
  });
  it('rejects a query string over maxQueryLength and over parameterLimit with a 400', () => {
    expect(parser.rejection(parser.parse(`a=${'x'.repeat(8200)}`))?.message).toBe('Query string too long (more than 8192 characters)');
    expect(parser.rejection(parser.parse(Array.from({ length: 1001 }, () => 'a=1').join('&')))?.message).toBe('Too many query parameters (more than 1000)');
    const custom = createQueryStringParser({ maxQueryLength: 20, parameterLimit: 2 });
    expect(custom.rejection(custom.parse('a=1&b=2&c=3'))?.status).toBe(400);
    expect(custom.rejection(custom.parse('a=123456789012345678901'))?.status).toBe(400);
    expect(custom.parse('a=1&b=2')).toEqual({ a: '1', b: '2' });
  });
  it('the project\'s strapi::query options are qs options (arrays past arrayLimit become objects, as in v4)', () => {
    const custom = createQueryStringParser({ arrayLimit: 3 });
    expect(custom.parse('a[0]=x&a[1]=y')).toEqual({ a: ['x', 'y'] });
    expect(custom.parse('a[0]=x&a[7]=y')).toEqual({ a: { 0: 'x', 7: 'y' } });
    expect(createQueryStringParser({}).parse('a[0]=x&a[7]=y')).toEqual({ a: ['x', 'y'] });
  });
  it('a rejected query string reaches no parser: nothing in it is enumerable', () => {
    expect(Object.keys(parser.parse(`filters[x]=${'y'.repeat(9000)}`))).toEqual([]);
  });
});
