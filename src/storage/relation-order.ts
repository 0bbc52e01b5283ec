// Where `connect` puts each relation, as v4's database layer computes it (same order values, same errors):
//  - connect items are applied in an order where an item placed before/after another one comes after it;
//  - before/after an existing relation: its order -/+ 0.5; next to one connected in the same request: the same
//    order; start: 0.5; end (default): the current maximum + 0.5;
//  - items sharing an order value are spread evenly between floor(order) and floor(order) + 1.
// The caller renumbers the column to 1..n afterwards, as v4 does. Pure: no SQL here.
import type { ConnectItem, RelationId } from './relation-ops';

/** v4's InvalidRelationError: a 400 ValidationError with these messages. */
export class ConnectOrderError extends Error {}

interface Placed {
  id: RelationId;
  order: number;
  /** an existing relation (read from the link table), not one connected now */
  init: boolean;
}

const key = (id: RelationId) => String(id);

function adjacentOf(item: ConnectItem): RelationId | undefined {
  const p = item.position;
  return 'before' in p ? p.before : 'after' in p ? p.after : undefined;
}

/** Items whose position names another connected item are moved after it; strict: the named id must exist. */
export function sortConnect(connect: ConnectItem[], existing: ReadonlySet<string>, strict: boolean): ConnectItem[] {
  const byId = new Map<string, ConnectItem>();
  let needsSorting = false;
  for (const item of connect) {
    const adj = adjacentOf(item);
    if (adj === undefined || (!existing.has(key(adj)) && !byId.has(key(adj)))) needsSorting = true;
    if (byId.has(key(item.id))) {
      throw new ConnectOrderError(`The relation with id ${item.id} is already connected. You cannot connect the same relation twice.`);
    }
    byId.set(key(item.id), item);
  }
  if (!needsSorting) return connect;

  const sorted: ConnectItem[] = [];
  const done = new Set<string>();
  const visit = (item: ConnectItem, branch: ReadonlySet<string>): void => {
    const adj = adjacentOf(item);
    if (adj !== undefined && branch.has(key(adj))) {
      throw new ConnectOrderError(
        'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
      );
    }
    if (done.has(key(item.id))) return;
    done.add(key(item.id));
    if (adj === undefined || existing.has(key(adj))) {
      sorted.push(item);
    } else if (byId.has(key(adj))) {
      visit(byId.get(key(adj))!, new Set([...branch, key(item.id)]));
      sorted.push(item);
    } else if (strict) {
      throw new ConnectOrderError(
        `There was a problem connecting relation with id ${item.id} at position ${JSON.stringify(item.rawPosition)}. The relation with id ${adj} needs to be connected first.`,
      );
    } else {
      sorted.push({ ...item, position: { end: true }, rawPosition: { end: true } });
    }
  };
  for (const item of connect) visit(item, new Set());
  return sorted;
}

/**
 * The relations after applying `connect` to `existing` (the relations of the link table that matter: the
 * ones named by before/after and the last one). Returns them in their new sequence with v4's order values.
 */
export function applyConnect(existing: Array<{ id: RelationId; order: number | null }>, connect: ConnectItem[], strict: boolean): Placed[] {
  const placed: Placed[] = existing.map((r) => ({ id: r.id, order: Number(r.order) || 1, init: true }));
  const maxOrder = placed.reduce((m, r) => Math.max(m, r.order), 0);
  const indexOf = (id: RelationId) => placed.findIndex((r) => key(r.id) === key(id));
  for (const item of sortConnect(connect, new Set(placed.map((r) => key(r.id))), strict)) {
    const current = indexOf(item.id);
    if (current >= 0) placed.splice(current, 1);
    const p = item.position;
    let at: number;
    let order: number;
    if ('before' in p || 'after' in p) {
      const adj = 'before' in p ? p.before : p.after;
      const i = indexOf(adj);
      if (i < 0) {
        throw new ConnectOrderError(
          `There was a problem connecting relation with id ${item.id} at position ${JSON.stringify(item.rawPosition)}. The list of connect relations is not valid`,
        );
      }
      const ref = placed[i];
      order = ref.init ? ref.order + ('before' in p ? -0.5 : 0.5) : ref.order;
      at = 'before' in p ? i : i + 1;
    } else if ('start' in p) {
      order = 0.5;
      at = 0;
    } else {
      order = maxOrder + 0.5;
      at = placed.length;
    }
    placed.splice(at, 0, { id: item.id, order, init: false });
  }
  return placed;
}

/** Order values for the connected relations (v4's getOrderMap): equal values spread within their unit. */
export function connectOrderMap(placed: Placed[]): Map<string, number> {
  const groups = new Map<number, Placed[]>();
  for (const r of placed) {
    const g = groups.get(r.order);
    if (g) g.push(r);
    else groups.set(r.order, [r]);
  }
  const out = new Map<string, number>();
  for (const group of groups.values()) {
    if (group[0].init) continue;
    group.forEach((r, i) => out.set(key(r.id), Math.floor(r.order) + (i + 1) / (group.length + 1)));
  }
  return out;
}
