// `populate` in every v4 form -> the storage populate tree (src/query/parse-populate.ts).
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parsePopulate, MAX_POPULATE_NODES } from '../../../src/query/parse-populate';
import type { QueryContext } from '../../../src/query/query-context';
import type { PopulateNode } from '../../../src/query/types';
import { fixtureModel } from '../../helpers/fixture-model';

const model = fixtureModel();
const article = model.require('api::article.article');
const ctx: QueryContext = {
  model,
  visibility: { globalPrivate: new Set() },
  canRead: () => true,
  pagination: { defaultLimit: 25, maxLimit: 100, withCount: true },
};
/** the way a request arrives: qs-parsed */
const parse = (query: string, c: QueryContext = ctx) =>
  parsePopulate(c, article, (qs.parse(query, { strictNullHandling: true, arrayLimit: 100, depth: 20 }) as { populate?: unknown }).populate) as Record<string, PopulateNode> | undefined;
const keys = (query: string) => Object.keys(parse(query) ?? {});
/** a node's nested populate and per-type nodes, typed as the parser writes them */
const sub = (n: PopulateNode) => n.populate as Record<string, PopulateNode>;
const on = (n: PopulateNode) => n.on as Record<string, PopulateNode>;

const RELATIONAL = ['author', 'categories', 'editorPick', 'related', 'seo', 'links', 'blocks', 'cover', 'gallery'];

describe('forms', () => {
  it('* is one level of every relation, media, component and dynamic zone', () => {
    const p = parse('populate=*')!;
    expect(Object.keys(p)).toEqual(RELATIONAL);
    expect(p.author).toEqual({ select: ['name', 'email', 'bio', 'createdAt', 'updatedAt'] });
    expect(Object.keys(p.blocks.on!)).toEqual(['blocks.text', 'blocks.quote', 'blocks.gallery']);
    expect(p.seo.populate).toBeUndefined();
  });
  it('names, comma strings (trimmed), arrays; * inside a comma string is ignored as in v4', () => {
    expect(keys('populate=author,%20categories')).toEqual(['author', 'categories']);
    expect(keys('populate[0]=author&populate[1]=seo,links')).toEqual(['author', 'seo', 'links']);
    expect(keys('populate=*,author')).toEqual(['author']);
  });
  it('booleans as v4 casts them', () => {
    expect(keys('populate[author]=true&populate[categories]=t&populate[seo]=1&populate[links]=yes&populate[cover]=*')).toEqual(['author', 'categories', 'seo', 'links', 'cover']);
    expect(keys('populate[author]=false&populate[categories]=f&populate[seo]=0&populate[links]=')).toEqual([]);
  });
  it('unknown, scalar and private names are left out', () => {
    expect(parse('populate=nope,title')).toBeUndefined();
    expect(parse('populate=author.secret')!.author.populate).toBeUndefined();
  });
  it('dotted paths through relations, components, media and dynamic zones', () => {
    const p = parse('populate=categories.articles.author,seo.shareImage,blocks.images')!;
    expect(Object.keys(sub(p.categories))).toEqual(['articles']);
    expect(Object.keys((sub(p.categories).articles as PopulateNode).populate!)).toEqual(['author']);
    expect(Object.keys(sub(p.seo))).toEqual(['shareImage']);
    expect(on(p.blocks)['blocks.gallery'].populate).toHaveProperty('images');
    expect(on(p.blocks)['blocks.text'].populate).toBeUndefined();
  });
  it('object options', () => {
    const p = parse('populate[categories][fields][0]=name&populate[categories][filters][name][$eq]=x&populate[categories][sort]=name:desc&populate[categories][populate][articles][count]=true&populate[categories][start]=1&populate[categories][limit]=2')!;
    expect(p.categories).toMatchObject({ select: ['name'], where: { name: { $eq: 'x' } }, offset: 1, limit: 2 });
    expect(sub(p.categories).articles).toMatchObject({ count: true });
  });
  it('count: relations and components; ignored on media and dynamic zones; a 400 when not a boolean', () => {
    const p = parse('populate[categories][count]=true&populate[seo][count]=t&populate[gallery][count]=true&populate[blocks][count]=true')!;
    expect(p.categories.count).toBe(true);
    expect(p.seo.count).toBe(true);
    expect(p.gallery.count).toBeUndefined();
    expect(on(p.blocks)['blocks.text'].count).toBeUndefined();
    expect(() => parse('populate[author][count]=x')).toThrow('Invalid count parameter. Expected "t","1","true","false","0","f"');
  });
  it('page and offset pagination may not be mixed (v4 message); page/pageSize are ignored', () => {
    expect(() => parse('populate[categories][page]=1&populate[categories][limit]=1')).toThrow('Invalid pagination attributes. You cannot use page and offset pagination in the same query');
    expect(parse('populate[categories][page]=2&populate[categories][pageSize]=1')!.categories).toEqual({ select: ['name', 'slug', 'priority', 'createdAt', 'updatedAt'] });
  });
  it('dynamic zones: shared strategy applies to each component, `on` keeps only the named ones', () => {
    const shared = parse('populate[blocks][populate]=*')!;
    expect(Object.keys(shared.blocks.on!)).toEqual(['blocks.text', 'blocks.quote', 'blocks.gallery']);
    expect(Object.keys(sub(on(shared.blocks)['blocks.gallery']))).toEqual(['images']);
    const perType = parse('populate[blocks][on][blocks.quote][fields][0]=by&populate[blocks][on][shared.link]=true&populate[blocks][on][nope.nope]=true')!;
    expect(perType.blocks.on).toEqual({ 'blocks.quote': { select: ['by'] }, 'shared.link': { select: ['label', 'url'] } });
    expect(() => parse('populate[blocks][fields]=title')).toThrow('Invalid parameter title');
  });
  it('forms v4 answers with a 500 are merged', () => {
    expect(parse('populate=author&populate[categories][fields][0]=name')).toMatchObject({ author: {}, categories: { select: ['name'] } });
    expect(parse('populate[author]=true&populate[author][fields]=name')).toEqual({ author: { select: ['name'] } });
    expect(Object.keys(parse('populate=*&populate[author][fields]=name')!)).toEqual(RELATIONAL);
    expect(parse('populate=*&populate[author][fields]=name')!.author.select).toEqual(['name']);
    expect(keys('populate[0]=*')).toEqual(RELATIONAL);
    expect(keys('populate[author]')).toEqual(['author']);
  });
  it('dotted and object forms of the same attribute merge', () => {
    const p = parse('populate=author.avatar&populate[author][fields][0]=name')!;
    expect(p.author.select).toEqual(['name']);
    expect(Object.keys(sub(p.author))).toEqual(['avatar']);
  });
});

describe('permissions and private fields', () => {
  it('targets the caller may not read are left out silently', () => {
    const noAuthors: QueryContext = { ...ctx, canRead: (uid) => uid !== 'api::author.author' };
    expect(Object.keys(parsePopulate(noAuthors, article, '*') ?? {})).not.toContain('author');
    expect(parsePopulate(noAuthors, article, 'author')).toBeUndefined();
    const noFiles: QueryContext = { ...ctx, canRead: (uid) => uid !== 'plugin::upload.file' };
    expect(Object.keys(parsePopulate(noFiles, article, '*') ?? {})).toEqual(['author', 'categories', 'editorPick', 'related', 'seo', 'links', 'blocks']);
  });
  it('private fields are never selected by default and a 400 when named', () => {
    const author = model.require('api::author.author');
    const p = parsePopulate(ctx, model.require('api::category.category'), { articles: { populate: { author: true } } }) as Record<string, PopulateNode>;
    expect(sub(p.articles).author.select).not.toContain('secret');
    expect(() => parsePopulate(ctx, article, { author: { fields: ['secret'] } })).toThrow('Invalid parameter secret');
    expect(author.attributes.secret.private).toBe(true);
  });
});

describe('bounds', () => {
  const chain = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? 'articles' : 'author')).join('.');
  it('depth: 10 levels by default, configurable (api.rest.maxPopulateDepth)', () => {
    expect(() => parse(`populate=${chain(10)}`)).not.toThrow();
    expect(() => parse(`populate=${chain(11)}`)).toThrow('Invalid populate: nested deeper than 10 levels');
    expect(() => parse(`populate=${chain(4)}`, { ...ctx, maxPopulateDepth: 3 })).toThrow('nested deeper than 3 levels');
    let deep: Record<string, unknown> = { fields: ['name'] };
    for (let i = 0; i < 12; i++) deep = { populate: { [i % 2 ? 'articles' : 'author']: deep } };
    expect(() => parsePopulate(ctx, article, { author: deep })).toThrow(/deeper than 10 levels/);
  });
  it('size: at most MAX_POPULATE_NODES populated attributes per request (each one named counts)', () => {
    const path = 'categories.articles.author.articles.categories';
    expect(() => parsePopulate(ctx, article, Array(MAX_POPULATE_NODES / 5).fill(path))).not.toThrow();
    expect(() => parsePopulate(ctx, article, Array(MAX_POPULATE_NODES / 5 + 1).fill(path))).toThrow('Invalid populate: more than 200 populated attributes');
  });
});
