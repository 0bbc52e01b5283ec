// Relation sides as Strapi 4.26.2's database metadata links them (@strapi/database createRelation): an inverse
// side gets its owner's link table only from the owner's `inversedBy`. One that no owner names back (its
// `mappedBy` names nothing, a non-relation, or a relation without that inversedBy) starts in v4 and is never
// linked: Tessera warns, naming the file and attribute, and leaves it out. What v4 refuses stays refused.
import { describe, expect, it } from 'vitest';
import { buildModel, type ModelSource } from '../../../src/model/build-model';
import type { RelationAttribute } from '../../../src/model/types';

const type = (name: string, attributes: Record<string, unknown>): ModelSource => ({
  uid: `api::${name}.${name}`, kind: 'collectionType', origin: 'api', modelName: name, file: `/p/${name}/schema.json`,
  schema: { collectionName: `${name}s`, info: { singularName: name, pluralName: `${name}s`, displayName: name }, attributes } as ModelSource['schema'],
});
const rel = (relation: string, target: string, more: Record<string, unknown> = {}) => ({ type: 'relation', relation, target: `api::${target}.${target}`, ...more });

/** shelf and book of test/fixtures/mapped-by-app */
const shelfAndBook = () => [
  type('shelf', {
    name: { type: 'string' },
    items: rel('oneToMany', 'book', { mappedBy: 'shelf' }),
    books: rel('oneToMany', 'book', { mappedBy: 'nothing' }),
    favorite: rel('oneToOne', 'book', { mappedBy: 'nothingEither' }),
    tagged: rel('manyToMany', 'book', { mappedBy: 'title' }),
    owned: rel('oneToMany', 'book', { mappedBy: 'owner' }),
  }),
  type('book', {
    title: { type: 'string' },
    shelf: rel('manyToOne', 'shelf', { inversedBy: 'items' }),
    owner: rel('manyToOne', 'shelf'),
  }),
];

function built(sources: ModelSource[]) {
  const warnings: string[] = [];
  const model = buildModel(sources, { warn: (m) => warnings.push(m) });
  return { model, warnings };
}

describe('an inverse side no owner names back', () => {
  it('is left out with one warning naming the file, the attribute and why', () => {
    const { model, warnings } = built(shelfAndBook());
    expect(warnings).toEqual([
      '/p/shelf/schema.json: attribute "books": mappedBy "nothing" names no attribute of "api::book.book": v4 never links this side, so it is left out (no populate, filters or writes)',
      '/p/shelf/schema.json: attribute "favorite": mappedBy "nothingEither" names no attribute of "api::book.book": v4 never links this side, so it is left out (no populate, filters or writes)',
      '/p/shelf/schema.json: attribute "tagged": mappedBy "title" names a scalar attribute of "api::book.book", not a relation: v4 never links this side, so it is left out (no populate, filters or writes)',
      '/p/shelf/schema.json: attribute "owned": mappedBy "owner" names a relation of "api::book.book" whose inversedBy is not "owned": v4 never links this side, so it is left out (no populate, filters or writes)',
    ]);
    const shelf = model.require('api::shelf.shelf');
    expect(Object.keys(shelf.attributes)).toEqual(['name', 'items', 'createdAt', 'updatedAt']);
    // strapi.contentTypes shows every attribute, as v4's does
    expect(Object.keys(shelf.schema.attributes)).toEqual(['name', 'items', 'books', 'favorite', 'tagged', 'owned', 'createdAt', 'updatedAt']);
  });

  it('leaves the rest linked as v4 links it: the named-back inverse side, and the one-way owner with no inverse order column', () => {
    const { model } = built(shelfAndBook());
    const book = model.require('api::book.book');
    expect((model.require('api::shelf.shelf').attributes.items as RelationAttribute).joinTable).toEqual({
      name: 'books_shelf_links', joinColumn: 'shelf_id', inverseJoinColumn: 'book_id', orderColumn: 'book_order', inverseOrderColumn: undefined,
    });
    expect((book.attributes.owner as RelationAttribute).joinTable).toEqual({ name: 'books_owner_links', joinColumn: 'book_id', inverseJoinColumn: 'shelf_id' });
  });

  it('warns through a Node process warning when no warn callback is given', async () => {
    const seen: string[] = [];
    const listener = (w: Error) => { if (w.name === 'TesseraModelWarning') seen.push(w.message); };
    process.on('warning', listener);
    try {
      buildModel(shelfAndBook());
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    expect(seen).toHaveLength(4);
  });

  it('is linked when its owner names it back, whatever its own mappedBy says (v4 assigns from inversedBy)', () => {
    const { model, warnings } = built([
      type('shelf', { items: rel('oneToMany', 'book', { mappedBy: 'misspelt' }) }),
      type('book', { shelf: rel('manyToOne', 'shelf', { inversedBy: 'items' }) }),
    ]);
    expect(warnings).toEqual([]);
    expect((model.require('api::shelf.shelf').attributes.items as RelationAttribute).joinTable?.name).toBe('books_shelf_links');
  });

  it('is the owner when it has both inversedBy and mappedBy (v4 isOwner)', () => {
    const { model } = built([
      type('tag', { posts: rel('manyToMany', 'post', { inversedBy: 'tags', mappedBy: 'tags' }) }),
      type('post', { tags: rel('manyToMany', 'tag', { mappedBy: 'posts' }) }),
    ]);
    expect((model.require('api::tag.tag').attributes.posts as RelationAttribute)).toMatchObject({ owner: true, joinTable: { name: 'tags_posts_links' } });
    expect((model.require('api::post.post').attributes.tags as RelationAttribute)).toMatchObject({ owner: false, joinTable: { name: 'tags_posts_links' } });
  });
});

describe('mistakes v4 refuses to start with', () => {
  const refusal = (sources: ModelSource[]) => () => buildModel(sources, { warn: () => undefined });

  it('an inversedBy naming nothing', () => {
    expect(refusal([type('shelf', { x: rel('manyToMany', 'book', { inversedBy: 'ghost' }) }), type('book', {})]))
      .toThrow('/p/shelf/schema.json: attribute "x": inversedBy "ghost" is not a relation of "api::book.book" back to "api::shelf.shelf"');
  });

  it('a missing target, on either side', () => {
    expect(refusal([type('shelf', { x: rel('oneToOne', 'ghost') })])).toThrow('attribute "x": relation target "api::ghost.ghost" does not exist');
    expect(refusal([type('shelf', { x: rel('oneToMany', 'ghost', { mappedBy: 'y' }) })])).toThrow('attribute "x": relation target "api::ghost.ghost" does not exist');
  });

  it('a oneToMany with inversedBy, a manyToOne with mappedBy', () => {
    expect(refusal([type('shelf', { x: rel('oneToMany', 'book', { inversedBy: 'shelf' }) }), type('book', { shelf: rel('manyToOne', 'shelf', { mappedBy: 'x' }) })]))
      .toThrow('/p/shelf/schema.json: attribute "x": one side of a oneToMany cannot be the owner side in a bidirectional relation');
    expect(refusal([type('shelf', { x: rel('manyToOne', 'book', { mappedBy: 'owner' }) }), type('book', { owner: rel('oneToMany', 'shelf') })]))
      .toThrow('/p/shelf/schema.json: attribute "x": The many side of a manyToOne must be the owning side');
  });
});
