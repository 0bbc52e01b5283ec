// Connect positions as v4's database layer computes them (src/storage/relation-order.ts). Expected values
// were checked against the link rows Strapi 4.26.2 wrote for the same requests (test/golden/relations-writes.*).
import { describe, expect, it } from 'vitest';
import { applyConnect, connectOrderMap, ConnectOrderError, sortConnect } from '../../../src/storage/relation-order';
import type { ConnectItem, Position } from '../../../src/storage/relation-ops';

const item = (id: number, position: Position = { end: true }): ConnectItem => ({ id, position, rawPosition: position });
const orders = (placed: ReturnType<typeof applyConnect>) => Object.fromEntries(connectOrderMap(placed));

describe('applyConnect (update)', () => {
  it('before, start and after an item connected just before (v4: 4 before 5, 6 at start, 3 after 4)', () => {
    // the neighbours v4 reads: the one named (5, order 2) and the last one (1, order 3)
    const placed = applyConnect([{ id: 5, order: 2 }, { id: 1, order: 3 }], [item(4, { before: 5 }), item(6, { start: true }), item(3, { after: 4 })], true);
    expect(placed.map((r) => r.id)).toEqual([6, 4, 3, 5, 1]);
    expect(orders(placed)).toEqual({ 6: 0.5, 4: 1 + 1 / 3, 3: 1 + 2 / 3 });
  });
  it('end goes after the last one; several ends share the unit after it', () => {
    const placed = applyConnect([{ id: 9, order: 4 }], [item(1), item(2)], true);
    expect(orders(placed)).toEqual({ 1: 4 + 1 / 3, 2: 4 + 2 / 3 });
  });
  it('moving an existing relation removes it from its old place first', () => {
    const placed = applyConnect([{ id: 1, order: 1 }, { id: 2, order: 3 }], [item(2, { before: 1 })], true);
    expect(placed.map((r) => r.id)).toEqual([2, 1]);
    expect(orders(placed)).toEqual({ 2: 0.5 });
  });
  it('an item placed next to one connected later in the array is computed after it', () => {
    const placed = applyConnect([], [item(1), item(2, { before: 1 }), item(3, { after: 2 })], true);
    expect(placed.map((r) => r.id)).toEqual([2, 3, 1]);
  });
  it('a missing order counts as 1', () => {
    expect(orders(applyConnect([{ id: 1, order: null }], [item(2, { after: 1 })], true))).toEqual({ 2: 1.5 });
  });
  it('non-strict: an unknown neighbour means the end', () => {
    const placed = applyConnect([{ id: 1, order: 2 }], [item(3, { before: 99 })], false);
    expect(placed.map((r) => r.id)).toEqual([1, 3]);
  });
});

describe('errors (v4 messages)', () => {
  it('a neighbour that is not connected', () => {
    expect(() => applyConnect([], [item(2, { before: 5 })], true)).toThrow(
      new ConnectOrderError('There was a problem connecting relation with id 2 at position {"before":5}. The relation with id 5 needs to be connected first.'),
    );
  });
  it('the same id twice', () => {
    expect(() => sortConnect([item(4, { start: true }), item(4)], new Set(), true)).toThrow('The relation with id 4 is already connected. You cannot connect the same relation twice.');
  });
  it('circular positions', () => {
    expect(() => sortConnect([item(1, { before: 2 }), item(2, { before: 1 })], new Set(), true)).toThrow(/^A circular reference was found in the connect array/);
  });
  it('placed next to itself', () => {
    expect(() => applyConnect([{ id: 3, order: 1 }], [item(3, { before: 3 })], true)).toThrow(/The list of connect relations is not valid/);
  });
});
