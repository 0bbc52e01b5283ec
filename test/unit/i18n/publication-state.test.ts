// How draft & publish filters populated relations: the state passes down the populate tree (through
// components and dynamic zones) to every target with draft & publish, until a node sets its own.
import { describe, expect, it } from 'vitest';
import { LIVE, withPublicationState } from '../../../src/query/publication-state';
import { fixtureModel } from '../../helpers/fixture-model';

const m = fixtureModel();
const article = m.require('api::article.article');
const author = m.require('api::author.author');

describe('withPublicationState', () => {
  it('adds the live filter on targets with draft & publish only', () => {
    const out = withPublicationState(m, article, { editorPick: { select: ['title'] }, author: { select: ['name'] } }, 'live') as Record<string, { where?: unknown }>;
    expect(out.editorPick.where).toEqual(LIVE);
    expect(out.author.where).toBeUndefined();
  });

  it('keeps a relation filter and adds the live one', () => {
    const out = withPublicationState(m, article, { related: { where: { views: { $gt: 1 } } } }, 'live') as Record<string, { where?: unknown }>;
    expect(out.related.where).toEqual({ $and: [{ views: { $gt: 1 } }, LIVE] });
  });

  it('passes down through relations without draft & publish', () => {
    const out = withPublicationState(m, article, { author: { populate: { articles: {} } } }, 'live') as Record<string, { populate: Record<string, { where?: unknown }> }>;
    expect(out.author.populate.articles.where).toEqual(LIVE);
  });

  it('a node with its own state wins for itself and below', () => {
    const out = withPublicationState(m, author, { articles: { publicationState: 'preview', populate: { editorPick: {} } } }, 'live') as Record<string, { where?: unknown; populate: Record<string, { where?: unknown }> }>;
    expect(out.articles.where).toBeUndefined();
    expect(out.articles.populate.editorPick.where).toBeUndefined();
    const live = withPublicationState(m, author, { articles: { publicationState: 'live' } }, undefined) as Record<string, { where?: unknown }>;
    expect(live.articles.where).toEqual(LIVE);
  });

  it('no state (findOne, writes): nothing added', () => {
    const out = withPublicationState(m, article, { editorPick: {}, related: {} }, undefined) as Record<string, { where?: unknown }>;
    expect(out.editorPick.where).toBeUndefined();
    expect(out.related.where).toBeUndefined();
    expect(withPublicationState(m, article, undefined, 'live')).toBeUndefined();
  });

  it('through dynamic-zone components and the string/array populate forms', () => {
    const homepage = m.require('api::homepage.homepage');
    const arr = withPublicationState(m, homepage, ['featured'], 'live') as Record<string, { where?: unknown }>;
    expect(arr.featured.where).toEqual(LIVE);
    const dz = withPublicationState(m, article, { blocks: { on: { 'blocks.gallery': { populate: { images: {} } } } } }, 'live') as Record<string, { on: Record<string, { populate: Record<string, { where?: unknown }> }> }>;
    expect(dz.blocks.on['blocks.gallery'].populate.images.where).toBeUndefined(); // files have no draft & publish
  });
});
