// What after hooks may leave in a Content API answer (storage/hooked-entities.ts pruneToShape): attributes
// outside the validated select / populate go at every level, keys naming no attribute stay.
import { expect, it } from 'vitest';
import { pruneToShape } from '../../../src/storage/hooked-entities';
import { fixtureModel } from '../../helpers/fixture-model';

const model = fixtureModel();
const article = model.require('api::article.article');

it('removes attributes the read did not select or populate, at every level, and keeps computed keys', () => {
  const entity = {
    id: 1, title: 'T', body: 'not selected', computed: 'kept',
    author: { id: 2, name: 'A', secret: 'leak', avatar: { id: 9, url: '/x.png' }, extra: 'kept too' },
    categories: [{ id: 3, name: 'C', slug: 'not selected' }],
    seo: { id: 4, metaTitle: 'm', metaDescription: 'not selected' },
    blocks: [{ id: 5, __component: 'blocks.text', body: 'not selected' }],
    cover: { id: 6, url: '/c.png' },
  };
  pruneToShape(model, article, entity, {
    select: ['title'],
    populate: {
      author: { select: ['name'] },
      categories: { select: ['name'] },
      seo: { select: ['metaTitle'] },
      blocks: { on: { 'blocks.text': { select: [] } } },
    },
  });
  expect(entity).toEqual({
    id: 1, title: 'T', computed: 'kept',
    author: { id: 2, name: 'A', extra: 'kept too' },
    categories: [{ id: 3, name: 'C' }],
    seo: { id: 4, metaTitle: 'm' },
    blocks: [{ id: 5, __component: 'blocks.text' }],
  });
});
