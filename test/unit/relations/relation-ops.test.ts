// Every v4 relation value form -> one operation (src/storage/relation-ops.ts).
import { describe, expect, it } from 'vitest';
import { parseRelationValue, referencedIds, RelationInputError, SET_WITH_CONNECT } from '../../../src/storage/relation-ops';

const end = { end: true };

describe('set forms', () => {
  it.each([
    [5, [5]],
    ['5', [5]],
    [{ id: 5 }, [5]],
    [{ id: '5', type: 'x' }, [5]],
    [[1, 2], [1, 2]],
    [[{ id: 1 }, 2, '3'], [1, 2, 3]],
    [[2, 1, 2], [2, 1]],
    [{ set: [3, { id: 1 }] }, [3, 1]],
    [{ set: [] }, []],
    [null, []],
    [[], []],
  ])('%j -> set %j', (value, ids) => {
    expect(parseRelationValue(value)).toEqual({ kind: 'set', ids });
  });
  it('keeps ids no row can have (the existence check reports them, as v4 does)', () => {
    expect(parseRelationValue('abc')).toEqual({ kind: 'set', ids: ['abc'] });
    expect(parseRelationValue(1.5)).toEqual({ kind: 'set', ids: [1.5] });
  });
});

describe('connect and disconnect', () => {
  it('short and long forms, default position end, strict by default', () => {
    expect(parseRelationValue({ connect: [1, { id: 2, position: { before: 1 } }], disconnect: [3, { id: 4 }] })).toEqual({
      kind: 'edit', strict: true, disconnect: [3, 4],
      connect: [
        { id: 1, position: end, rawPosition: end },
        { id: 2, position: { before: 1 }, rawPosition: { before: 1 } },
      ],
    });
  });
  it('every position form; before wins over after as in v4; anything else is the end', () => {
    const pos = (position: unknown) => {
      const op = parseRelationValue({ connect: [{ id: 1, position }] });
      return op?.kind === 'edit' ? op.connect[0].position : null;
    };
    expect(pos({ before: '7' })).toEqual({ before: 7 });
    expect(pos({ after: 7 })).toEqual({ after: 7 });
    expect(pos({ start: true })).toEqual({ start: true });
    expect(pos({ end: true })).toEqual(end);
    expect(pos({ before: 2, after: 3 })).toEqual({ before: 2 });
    expect(pos('x')).toEqual(end);
  });
  it('options.strict false', () => {
    expect(parseRelationValue({ connect: [1], options: { strict: false } })).toMatchObject({ strict: false });
  });
  it('identical items are one (v4 drops deep-equal duplicates); differing ones stay for the duplicate check', () => {
    const op = parseRelationValue({ connect: [3, 3, { id: 4 }, { id: 4 }, { id: 5, position: end }, { id: 5 }] });
    expect(op?.kind === 'edit' && op.connect.map((c) => c.id)).toEqual([3, 4, 5, 5]);
  });
  it('a single disconnect id is accepted', () => {
    expect(parseRelationValue({ disconnect: 2 })).toMatchObject({ kind: 'edit', disconnect: [2], connect: [] });
  });
  it('nothing to do', () => {
    expect(parseRelationValue(undefined)).toBeNull();
    expect(parseRelationValue({})).toBeNull();
    expect(parseRelationValue({ connect: [], disconnect: [] })).toBeNull();
    expect(parseRelationValue({ set: null })).toBeNull();
  });
  it('set beside empty connect/disconnect is still a set', () => {
    expect(parseRelationValue({ set: [1], connect: [], disconnect: [] })).toEqual({ kind: 'set', ids: [1] });
  });
});

describe('wrong shapes', () => {
  it.each([
    [true], [false], [[true]], [[null]], [[{ foo: 1 }]], [{ id: null }], [{ id: { id: 1 } }],
    [{ connect: '3' }], [{ connect: { id: 3 } }], [{ connect: 3 }], [{ set: 3 }], [{ set: '3' }], [{ add: [1] }],
    [{ connect: [{ id: 1, position: { before: {} } }] }], [{ disconnect: [{}] }],
  ])('%j -> Invalid relations', (value) => {
    expect(() => parseRelationValue(value)).toThrow(RelationInputError);
    expect(() => parseRelationValue(value)).toThrow(/^Invalid relations/);
  });
  it('set with connect or disconnect', () => {
    expect(() => parseRelationValue({ set: [1], connect: [2] })).toThrow(SET_WITH_CONNECT);
    expect(() => parseRelationValue({ set: [1], disconnect: [2] })).toThrow(SET_WITH_CONNECT);
  });
});

it('referenced ids: set and connect, never disconnect', () => {
  expect(referencedIds(parseRelationValue([1, 2]))).toEqual([1, 2]);
  expect(referencedIds(parseRelationValue({ connect: [3], disconnect: [4] }))).toEqual([3]);
  expect(referencedIds(null)).toEqual([]);
});
