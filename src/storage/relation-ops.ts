// Every v4 form of a relation or media value in `data` -> one normalized operation. Pure: the Content API
// validates with it (wrong shapes are a 400) and storage writes with it, so both read the value one way.
//
//   5 | "5" | { id: 5 } | [1, 2] | [{ id: 1 }]   -> set (in that order)
//   null                                          -> set [] (clear)
//   { set: [...] }                                -> set
//   { connect: [...], disconnect: [...], options: { strict } }   -> edit
// connect items: an id or { id, position: { before | after: id } | { start: true } | { end: true } }.

export type RelationId = number | string;

export type Position = { before: RelationId } | { after: RelationId } | { start: true } | { end: true };

export interface ConnectItem {
  id: RelationId;
  position: Position;
  /** the position as the client wrote it (v4 quotes it in error messages) */
  rawPosition: unknown;
}

export type RelationOp =
  | { kind: 'set'; ids: RelationId[] }
  | { kind: 'edit'; connect: ConnectItem[]; disconnect: RelationId[]; strict: boolean };

/** A value no relation form matches: the Content API answers v4's 400 `Invalid relations`. */
export class RelationInputError extends Error {
  constructor(message = 'Invalid relations') {
    super(message);
  }
}

/** v4 (and its docs) forbid mixing them; v4 itself silently ignores connect/disconnect then. */
export const SET_WITH_CONNECT = 'Invalid relations: "set" cannot be combined with "connect" or "disconnect"';

const EDIT_KEYS = new Set(['connect', 'disconnect', 'set', 'options']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An id as stored: numeric strings become numbers; other strings stay (they match no row). */
function asId(v: unknown): RelationId | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') return /^\d{1,15}$/.test(v) ? Number(v) : v;
  return undefined;
}

function itemId(item: unknown): RelationId {
  const id = asId(isRecord(item) ? item.id : item);
  if (id === undefined) throw new RelationInputError();
  return id;
}

/** qs turns long arrays into objects with numeric keys; v4 only accepts real arrays here. */
function list(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw new RelationInputError();
  return v;
}

/** lodash isEqual for JSON values: key order does not matter */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isRecord(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** v4 drops items that are deep-equal to an earlier one (so `[3, 3]` connects 3 once, without an error). */
function uniqueItems(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = isRecord(item) ? `o${canonical(item)}` : `s${canonical(item)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function uniqueIds(ids: RelationId[]): RelationId[] {
  return [...new Map(ids.map((id) => [String(id), id])).values()];
}

function toPosition(raw: unknown): Position {
  if (!isRecord(raw)) return { end: true };
  const before = raw.before ? asId(raw.before) : undefined;
  if (raw.before && before === undefined) throw new RelationInputError();
  if (before !== undefined) return { before };
  const after = raw.after ? asId(raw.after) : undefined;
  if (raw.after && after === undefined) throw new RelationInputError();
  if (after !== undefined) return { after };
  if (raw.start) return { start: true };
  return { end: true };
}

function connectItem(item: unknown): ConnectItem {
  const id = itemId(item);
  const rawPosition = isRecord(item) && item.position ? item.position : { end: true };
  return { id, position: toPosition(rawPosition), rawPosition };
}

/**
 * The operation for one relation value, or null when there is nothing to do (undefined, `{}`).
 * Throws RelationInputError for a value of no accepted shape.
 */
export function parseRelationValue(value: unknown): RelationOp | null {
  if (value === undefined) return null;
  if (value === null) return { kind: 'set', ids: [] };
  if (Array.isArray(value)) return { kind: 'set', ids: uniqueIds(uniqueItems(value).map(itemId)) };
  if (typeof value === 'number' || typeof value === 'string' || (isRecord(value) && 'id' in value)) {
    return { kind: 'set', ids: [itemId(value)] };
  }
  if (!isRecord(value)) throw new RelationInputError();
  for (const key of Object.keys(value)) if (!EDIT_KEYS.has(key)) throw new RelationInputError();
  const nonEmpty = (v: unknown) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);
  const hasEdit = nonEmpty(value.connect) || nonEmpty(value.disconnect);
  if (value.set !== undefined && value.set !== null) {
    if (hasEdit) throw new RelationInputError(SET_WITH_CONNECT);
    return { kind: 'set', ids: uniqueIds(uniqueItems(list(value.set)).map(itemId)) };
  }
  const connect = value.connect === undefined || value.connect === null ? [] : uniqueItems(list(value.connect)).map(connectItem);
  const rawDisconnect = value.disconnect === undefined || value.disconnect === null ? [] : Array.isArray(value.disconnect) ? value.disconnect : [value.disconnect];
  const disconnect = uniqueIds(rawDisconnect.map(itemId));
  const options = isRecord(value.options) ? value.options : {};
  if (!connect.length && !disconnect.length) return null;
  return { kind: 'edit', connect, disconnect, strict: options.strict !== false };
}

/** Ids a value connects or sets: what must exist (v4 does not check disconnected ids). */
export function referencedIds(op: RelationOp | null): RelationId[] {
  if (!op) return [];
  return op.kind === 'set' ? op.ids : op.connect.map((c) => c.id);
}
