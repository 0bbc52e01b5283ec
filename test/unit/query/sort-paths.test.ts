// One sort normaliser (query/sort-paths.ts) for the three readers of a sort: REST parameters
// (query/parse-sort.ts), the entity service's v4 params (core/entity-service.ts toOrderBy) and storage
// orderBy (storage/compile-order.ts). The same value gives the same storage form everywhere.
import { describe, expect, it } from 'vitest';
import { parseSort } from '../../../src/query/parse-sort';
import type { QueryContext } from '../../../src/query/query-context';
import { sortPaths } from '../../../src/query/sort-paths';
import { toOrderBy } from '../../../src/core/entity-service';
import { fixtureModel } from '../../helpers/fixture-model';

const model = fixtureModel();
const trusted: QueryContext = { model, visibility: { globalPrivate: new Set(), trusted: true }, canRead: () => true, pagination: { defaultLimit: 25, withCount: true } };
const article = model.require('api::article.article');
const lenient = { strict: false, fail: (m: string) => new Error(m) };

describe('one sort normaliser', () => {
  const forms: unknown[] = [
    'title',
    'title:DESC,views',
    ['title:desc', 'author.name'],
    'author.name:desc',
    { author: { name: 'desc' } },
    [{ title: 'asc' }, { author: { name: 'desc' } }],
  ];
  it('REST parameters and the entity service give the same storage orderBy', () => {
    for (const form of forms) expect(toOrderBy(form)).toEqual(parseSort(trusted, article, form));
  });
  it('the entity service sorts through relations with a dotted path, as v4 (convertSortQueryParams nests it)', () => {
    expect(toOrderBy('author.name:desc,id')).toEqual([{ author: { name: 'desc' } }, { id: 'asc' }]);
  });
  it('v4 params are strict, storage orderBy lenient', () => {
    expect(() => toOrderBy(':desc')).toThrow('Field cannot be empty');
    expect(() => toOrderBy({ title: null })).toThrow('Invalid sort type expected object or string got null');
    expect(sortPaths(':desc,title', lenient)).toEqual([{ path: ['title'], direction: 'asc' }]);
    expect(sortPaths({ title: null, author: ['name:desc'] }, lenient)).toEqual([
      { path: ['title'], direction: 'asc' },
      { path: ['author', 'name'], direction: 'desc' },
    ]);
    expect(sortPaths({ title: 'up', slug: 'DESC' }, lenient)).toEqual([
      { path: ['title'], direction: 'asc' },
      { path: ['slug'], direction: 'desc' },
    ]);
  });
});
