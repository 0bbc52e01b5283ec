// Draft & publish on reads, as v4 applies it: under `live` an entry without `publishedAt` is left out, at
// the top of a `find` and on every populated relation whose target has draft & publish. The state passes
// down the populate tree (through components and dynamic zones too) until a node sets its own
// (`populate[x][publicationState]=preview`), as v4's query builder hands its `filters` to each populate.
import type { ContentType, Model } from '../model/types';
import type { Populate, PopulateNode, Where } from './types';
import { normalizePopulate } from '../storage/read-entities';

/** `undefined`: no publication filter at all (v4's findOne and writes) */
export type PublicationState = 'live' | 'preview' | undefined;

export const LIVE: Where = { publishedAt: { $notNull: true } };

export function and(a: Where | undefined, b: Where | undefined): Where | undefined {
  if (!a) return b;
  if (!b) return a;
  return { $and: [a, b] };
}

function targetOf(model: Model, ct: ContentType, name: string): ContentType | undefined {
  const attr = ct.attributes[name];
  if (!attr) return undefined;
  if (attr.kind === 'relation') return attr.relation.startsWith('morph') ? undefined : model.get(attr.target);
  if (attr.kind === 'component') return model.get(attr.component);
  if (attr.kind === 'media') return model.get('plugin::upload.file');
  return undefined;
}

function applyToNode(model: Model, target: ContentType | undefined, node: PopulateNode, inherited: PublicationState): PopulateNode {
  const state = node.publicationState ?? inherited;
  const out: PopulateNode = { ...node };
  if (target?.draftAndPublish && state === 'live') out.where = and(node.where, LIVE);
  if (target && node.populate) out.populate = withPublicationState(model, target, node.populate, state);
  if (node.on) {
    out.on = Object.fromEntries(Object.entries(node.on).map(([uid, sub]) => {
      const comp = model.get(uid);
      return [uid, sub === true || !comp ? sub : applyToNode(model, comp, sub, state)];
    }));
  }
  return out;
}

/** the populate tree with the live filter added where `state` (or a node's own state) asks for it */
export function withPublicationState(model: Model, ct: ContentType, populate: Populate | undefined, state: PublicationState): Populate | undefined {
  if (!populate) return populate;
  const out: Record<string, PopulateNode> = {};
  for (const [name, node] of normalizePopulate(ct, populate)) out[name] = applyToNode(model, targetOf(model, ct, name), node, state);
  return out;
}
