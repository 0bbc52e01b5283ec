// v4's rule for the attributes all locales of an entry share, and how an entry's values become write
// input for a sibling (I18N: getNonLocalizedAttributes, copyNonLocalizedAttributes).
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/model/build-model';
import { internalModelSources } from '../../../src/model/internal-models';
import type { RawSchema } from '../../../src/model/types';
import { copyNonLocalized, nonLocalizedAttributes, nonLocalizedNames } from '../../../src/plugins/i18n/non-localized';
import { fixtureModel } from '../../helpers/fixture-model';

const localized = { i18n: { localized: true } };
const shared = { i18n: { localized: false } };

function model() {
  const doc: RawSchema = {
    kind: 'collectionType',
    info: { singularName: 'doc', pluralName: 'docs', displayName: 'Doc' },
    options: { draftAndPublish: true },
    pluginOptions: localized,
    attributes: {
      title: { type: 'string', pluginOptions: localized },
      code: { type: 'uid' },
      rank: { type: 'integer', pluginOptions: shared },
      note: { type: 'string' },
      meta: { type: 'component', component: 'shared.meta', pluginOptions: shared },
      blocks: { type: 'dynamiczone', components: ['shared.meta'], pluginOptions: shared },
      cover: { type: 'media', multiple: false, pluginOptions: shared },
      pics: { type: 'media', multiple: true, pluginOptions: shared },
      parent: { type: 'relation', relation: 'manyToOne', target: 'api::doc.doc', pluginOptions: shared },
      hidden: { type: 'string', visible: false, pluginOptions: shared },
    },
  };
  const meta: RawSchema = { info: { displayName: 'Meta' }, attributes: { label: { type: 'string' }, inner: { type: 'component', component: 'shared.inner' } } };
  const inner: RawSchema = { info: { displayName: 'Inner' }, attributes: { n: { type: 'integer' } } };
  return buildModel([
    ...internalModelSources(),
    { uid: 'api::doc.doc', kind: 'collectionType', origin: 'api', modelName: 'doc', schema: doc },
    { uid: 'shared.meta', kind: 'component', origin: 'component', modelName: 'meta', schema: meta },
    { uid: 'shared.inner', kind: 'component', origin: 'component', modelName: 'inner', schema: inner },
  ]);
}

describe('non-localized attributes', () => {
  it("follows v4: shared unless marked localized; relations and uids never shared; hidden and system attributes left out", () => {
    const ct = model().require('api::doc.doc');
    expect(nonLocalizedAttributes(ct).sort()).toEqual(['blocks', 'cover', 'meta', 'note', 'pics', 'rank']);
  });

  it("the fixture app's page shares only `order`", () => {
    expect(nonLocalizedAttributes(fixtureModel().require('api::page.page'))).toEqual(['order']);
  });

  it('works on a raw schema too (the content-types service)', () => {
    expect(nonLocalizedNames({ a: { type: 'string', pluginOptions: localized }, b: { type: 'integer' }, c: { type: 'uid' }, createdAt: { type: 'datetime' } })).toEqual(['b']);
  });
});

describe('copyNonLocalized', () => {
  const m = model();
  const ct = m.require('api::doc.doc');

  it('copies only what the entry carries', () => {
    expect(copyNonLocalized(m, ct, { id: 1, title: 'T', rank: 3 })).toEqual({ rank: 3 });
    expect(copyNonLocalized(m, ct, { id: 1, title: 'T' })).toEqual({});
    expect(copyNonLocalized(m, ct, { id: 1, rank: null, note: undefined })).toEqual({ rank: null });
  });

  it('copies components and dynamic-zone items without their ids (new rows for the sibling), deep', () => {
    const entry = {
      id: 1,
      meta: { id: 10, label: 'x', inner: { id: 11, n: 2 } },
      blocks: [{ id: 12, __component: 'shared.meta', label: 'b', inner: { id: 13, n: 3 } }],
    };
    expect(copyNonLocalized(m, ct, entry)).toEqual({
      meta: { label: 'x', inner: { n: 2 } },
      blocks: [{ __component: 'shared.meta', label: 'b', inner: { n: 3 } }],
    });
    expect(entry.meta.id).toBe(10); // the entry itself is untouched
  });

  it('copies media as ids, and leaves out a `count` populate', () => {
    expect(copyNonLocalized(m, ct, { id: 1, cover: { id: 5, url: '/u.png' }, pics: [{ id: 6 }, { id: 7 }] })).toEqual({ cover: 5, pics: [6, 7] });
    expect(copyNonLocalized(m, ct, { id: 1, cover: null, pics: { count: 2 } })).toEqual({ cover: null });
  });
});
