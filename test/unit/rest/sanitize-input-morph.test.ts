// v4's input sanitizer on polymorphic relations: each `{ __type, id }` element is kept only when the caller may
// `find` its type, also inside connect/set/disconnect; a value of any other shape keeps nothing
// (@strapi/utils 4.26.2 removeRestrictedRelations, handleMorphElements).
import { describe, expect, it } from 'vitest';
import { buildModel, type ModelSource } from '../../../src/model/build-model';
import { sanitizeInput } from '../../../src/content/sanitize-input';

const type = (name: string, attributes: Record<string, unknown>): ModelSource => ({
  uid: `api::${name}.${name}`, kind: 'collectionType', origin: 'api', modelName: name,
  schema: { collectionName: `${name}s`, info: { singularName: name, pluralName: `${name}s`, displayName: name }, attributes } as ModelSource['schema'],
});

const model = buildModel([
  type('note', { title: { type: 'string' }, about: { type: 'relation', relation: 'morphToMany' } }),
  type('open', { title: { type: 'string' } }),
  type('secret', { title: { type: 'string' } }),
]);
const note = model.require('api::note.note');
const canFind = (uid: string) => uid !== 'api::secret.secret';
const open = { __type: 'api::open.open', id: 1 };
const secret = { __type: 'api::secret.secret', id: 2 };

describe('sanitizeInput on a morph relation', () => {
  it('keeps the readable elements of a list', () => {
    expect(sanitizeInput(model, note, { title: 't', about: [open, secret] }, canFind)).toEqual({ title: 't', about: [open] });
  });
  it('drops the attribute when no element is readable', () => {
    expect(sanitizeInput(model, note, { title: 't', about: [secret] }, canFind)).toEqual({ title: 't' });
  });
  it('filters each of connect, set and disconnect', () => {
    expect(sanitizeInput(model, note, { about: { connect: [open, secret], disconnect: [secret], set: [secret, open] } }, canFind))
      .toEqual({ about: { connect: [open], disconnect: [], set: [open] } });
  });
  it('keeps nothing of a value that is neither a list nor connect/set/disconnect', () => {
    expect(sanitizeInput(model, note, { title: 't', about: secret }, canFind)).toEqual({ title: 't' });
    expect(sanitizeInput(model, note, { title: 't', about: 2 }, canFind)).toEqual({ title: 't' });
  });
});
