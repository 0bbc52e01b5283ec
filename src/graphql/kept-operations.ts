// Which GraphQL operations the response cache may keep: a query (never a mutation or subscription) whose
// top-level fields are all shadow-CRUD reads of content types (their resolvers as the schema generator set
// them, not replaced by a plugin or the project), so the answer depends only on the data of those types, the
// caller's permissions and the request itself. `me` and every custom field are left out: they depend on who
// asks or on code the cache cannot see.
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { ShapeCache } from '../query/shape-cache';
import type { Operation } from './request-shape';

/** the top-level fields of each kept operation's kind, and the content type each reads */
export type ReadFields = ReadonlyMap<string, string>;

/** documents looked at (the types they read, or null: not kept), by text, per schema's read fields */
const seenBySchema = new WeakMap<ReadFields, ShapeCache<readonly string[] | null>>();

/** the content types a kept operation reads, or null when it is not kept */
export function keptOperationTypes(op: Operation, reads: ReadFields, maxTokens: number): readonly string[] | null {
  let seen = seenBySchema.get(reads);
  if (!seen) seenBySchema.set(reads, (seen = new ShapeCache(256)));
  const cacheKey = `${op.operationName ?? ''}\u0000${op.query}`;
  const known = seen.get(cacheKey);
  if (known !== undefined) return known;
  return seen.set(cacheKey, typesOf(op, reads, maxTokens));
}

function typesOf(op: Operation, reads: ReadFields, maxTokens: number): readonly string[] | null {
  let doc: DocumentNode;
  try {
    doc = parse(op.query, { maxTokens, noLocation: true });
  } catch {
    return null; // answered by the executor, with its error: not kept
  }
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const chosen = op.operationName ? ops.find((d) => d.name?.value === op.operationName) : ops.length === 1 ? ops[0] : undefined;
  if (!chosen || chosen.operation !== 'query') return null;
  const types = new Set<string>();
  for (const sel of chosen.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD) return null; // fragments at the top: not looked into
    if (sel.name.value === '__typename') continue;
    const uid = reads.get(sel.name.value);
    if (uid === undefined) return null;
    types.add(uid);
  }
  return types.size ? [...types].sort() : null;
}
