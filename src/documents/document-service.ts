// Writes through the Content API: validate the payload against the model, check uniqueness and that
// related ids exist, then write everything in ONE transaction and read the entry back.
import { ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import type { Entity, FindParams } from '../query/types';
import type { Database, Executor } from '../storage/dialect';
import { countEntities, findEntities } from '../storage/read-entities';
import { deleteEntity, insertEntity, toRelationOp, updateEntity } from '../storage/write-entities';
import { uniqueCandidates, validateInput } from './validate-input';

export type ReadParams = Pick<FindParams, 'select' | 'populate'>;

export interface DocumentService {
  create(ct: ContentType, data: Record<string, unknown>, read: ReadParams): Promise<Entity>;
  update(ct: ContentType, id: number, data: Record<string, unknown>, read: ReadParams): Promise<Entity | null>;
  delete(ct: ContentType, id: number, read: ReadParams): Promise<Entity | null>;
}

const UNIQUE_MESSAGE = 'This attribute must be unique';

async function checkUnique(tx: Executor, model: Model, ct: ContentType, data: Record<string, unknown>, selfId?: number): Promise<void> {
  const errors = [];
  for (const [name, value] of uniqueCandidates(ct, data)) {
    const where: Record<string, unknown> = { [name]: value };
    if (selfId !== undefined) where.id = { $ne: selfId };
    if ((await countEntities(tx, model, ct, where)) > 0) errors.push({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError' as const });
  }
  if (errors.length) throw new ValidationError(errors.length === 1 ? UNIQUE_MESSAGE : `${errors.length} errors occurred`, { errors });
}

/** Every id a relation or media value points at must exist (v4's message). */
async function checkRelationsExist(tx: Executor, model: Model, ct: ContentType, data: Record<string, unknown>): Promise<void> {
  for (const [name, value] of Object.entries(data)) {
    const attr = ct.attributes[name];
    if (!attr || (attr.kind !== 'relation' && attr.kind !== 'media') || value === undefined) continue;
    if (attr.kind === 'relation' && attr.relation.startsWith('morph')) continue;
    let op;
    try {
      op = toRelationOp(value);
    } catch (err) {
      throw new ValidationError((err as Error).message);
    }
    if (op.set && op.connect) throw new ValidationError('You cannot use set and connect at the same time');
    const ids = [...new Set([...(op.set ?? []), ...(op.connect ?? []).map((c) => c.id)])];
    if (!ids.length) continue;
    const target = model.require(attr.kind === 'media' ? 'plugin::upload.file' : attr.target);
    const found = await countEntities(tx, model, target, { id: { $in: ids } });
    if (found < ids.length) {
      throw new ValidationError(`${ids.length - found} relation(s) of type ${target.uid} associated with this entity do not exist`);
    }
  }
}

export function createDocumentService(db: Database, model: Model): DocumentService {
  const readBack = (tx: Executor, ct: ContentType, id: number, read: ReadParams) =>
    findEntities(tx, model, ct, { ...read, where: { id }, limit: 1 }).then((r) => r[0] ?? null);

  return {
    create(ct, input, read) {
      return db.transaction(async (tx) => {
        const raw = { ...input };
        if (ct.draftAndPublish && !('publishedAt' in raw)) raw.publishedAt = new Date().toISOString();
        const isDraft = ct.draftAndPublish && raw.publishedAt === null;
        const data = validateInput(model, ct, raw, { isCreate: true, isDraft });
        await checkUnique(tx, model, ct, data);
        await checkRelationsExist(tx, model, ct, data);
        const id = await insertEntity(tx, model, ct, data);
        return (await readBack(tx, ct, id, read))!;
      });
    },
    update(ct, id, input, read) {
      return db.transaction(async (tx) => {
        const current = await findEntities(tx, model, ct, { where: { id }, select: ct.draftAndPublish ? ['publishedAt'] : [], limit: 1 });
        if (!current.length) return null;
        const isDraft = ct.draftAndPublish && (input.publishedAt === null || (input.publishedAt === undefined && current[0].publishedAt === null));
        const data = validateInput(model, ct, input, { isCreate: false, isDraft });
        await checkUnique(tx, model, ct, data, id);
        await checkRelationsExist(tx, model, ct, data);
        await updateEntity(tx, model, ct, id, data);
        return readBack(tx, ct, id, read);
      });
    },
    delete(ct, id, read) {
      return db.transaction(async (tx) => {
        const entity = await readBack(tx, ct, id, read);
        if (!entity) return null;
        await deleteEntity(tx, model, ct, id);
        return entity;
      });
    },
  };
}
