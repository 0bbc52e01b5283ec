// Relation fields no read populated: a relation selected again under another alias with other arguments, or
// an entity that project code returned. Loaded per field node for all parents of that level at once: one read
// of the parents' type, by id, populating just that attribute with that node's selection and arguments.
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import type { Attribute, ContentType } from '../model/types';
import type { Entity } from '../query/types';
import { ApplicationError, ForbiddenError } from '../errors';
import { parseRestQuery } from '../query/parse-query';
import type { GraphqlContext } from './context';
import type { GraphqlDoor } from './door';
import { attributeNode } from './read-plan';
import { plannerOf } from './resolvers';
import { entryOf, OWNER, type Owner } from './shape';

interface Batch {
  uid: string;
  attr: Attribute;
  args: Record<string, unknown>;
  info: GraphQLResolveInfo;
  waiting: Map<number, Array<(value: unknown) => void>>;
  failed: Array<(err: unknown) => void>;
}

export class RelationLoader {
  private readonly batches = new Map<FieldNode, Map<string, Batch>>();
  private scheduled = false;

  constructor(private readonly door: GraphqlDoor, private readonly ctx: GraphqlContext) {}

  load(parent: Record<string, unknown>, attr: Attribute, args: Record<string, unknown>, info: GraphQLResolveInfo): Promise<unknown> {
    // as for a populated relation (read-plan.ts): a target the caller may not `find` is FORBIDDEN at the field
    if (attr.kind === 'relation' && !attr.relation.startsWith('morph') && !this.door.canRead(this.ctx.auth, attr.target)) {
      return Promise.reject(new ForbiddenError('Forbidden access'));
    }
    const owner = (parent as Record<symbol, Owner | undefined>)[OWNER];
    if (!owner) {
      // inside a component: its rows are not addressable on their own
      return Promise.reject(new ApplicationError(`"${info.fieldName}" inside a component can be selected once per component selection (aliases with other arguments are not supported there)`));
    }
    const node = info.fieldNodes[0];
    let byUid = this.batches.get(node);
    if (!byUid) this.batches.set(node, (byUid = new Map()));
    let batch = byUid.get(owner.uid);
    if (!batch) byUid.set(owner.uid, (batch = { uid: owner.uid, attr, args, info, waiting: new Map(), failed: [] }));
    const b = batch;
    return new Promise((resolve, reject) => {
      const list = b.waiting.get(owner.id);
      if (list) list.push(resolve);
      else b.waiting.set(owner.id, [resolve]);
      b.failed.push(reject);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // after the current level's resolvers have all asked (they run in one tick)
    setImmediate(() => {
      this.scheduled = false;
      const batches = [...this.batches.values()].flatMap((m) => [...m.values()]);
      this.batches.clear();
      for (const b of batches) this.run(b).catch((err) => b.failed.forEach((f) => f(err)));
    });
  }

  private async run(b: Batch): Promise<void> {
    const { door, ctx } = this;
    const ct = door.model.require(b.uid);
    const planner = plannerOf(door, ctx, b.info);
    const fieldType = b.info.parentType.getFields()[b.attr.name].type;
    const populate = { [b.attr.name]: attributeNode(planner, b.attr, fieldType, b.info.fieldNodes, b.args) };
    const results = await readByIds(door, ctx, ct, [...b.waiting.keys()], populate);
    const byId = new Map([...results.values()].map((e) => [e.id, entryOf(door.model, ct, e, true).attributes[b.attr.name]]));
    for (const [id, resolvers] of b.waiting) for (const resolve of resolvers) resolve(byId.get(id) ?? null);
  }
}

/**
 * Entries of `ct` already read (so whatever their state and locale), by id, with `populate` read for all of them
 * in one read on the shared pipeline (the caller's permissions apply to what is populated).
 */
export async function readByIds(door: GraphqlDoor, ctx: GraphqlContext, ct: ContentType, ids: unknown[], populate: Record<string, unknown>): Promise<Map<unknown, Entity>> {
  const raw: Record<string, unknown> = {
    fields: ['id'],
    filters: { id: { $in: ids } },
    populate,
    pagination: { limit: -1 },
    publicationState: 'preview',
    ...(ct.localized ? { locale: 'all' } : {}),
  };
  const q = parseRestQuery(door.queryContext(ctx.auth, door.unbounded), ct, raw, 'find');
  return new Map((await door.core(ct.uid).find(q)).results.map((e) => [e.id, e]));
}
