// Writes through the Content API: validate the payload against the model (relations included), check
// uniqueness, then write everything in ONE transaction and read the entry back. Any failure rolls back.
import { ApplicationError, ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import type { Entity, FindParams } from '../query/types';
import type { Database, Executor } from '../storage/dialect';
import { countEntities, findEntities } from '../storage/read-entities';
import { deleteEntity, insertEntity, updateEntity } from '../storage/write-entities';
import { findOneHooked, hookParams, pruneToShape, validatedRead } from '../storage/hooked-entities';
import { Lifecycles, stampCreate, stampUpdate, transactionOrHook } from '../storage/lifecycles';
import { ComponentOwnershipError, WriteError } from '../storage/write-errors';
import { ConnectOrderError } from '../storage/relation-order';
import { RelationInputError } from '../storage/relation-ops';
import { relationsIssue } from './relation-checks';
import { collectInput, uniqueCandidates, validationError, type ValidateOptions } from './validate-input';
import { DEFAULT_MAX_JSON_DEPTH } from '../json-nesting';
import { hashPasswordAttributes } from '../auth/passwords';

export type ReadParams = Pick<FindParams, 'select' | 'populate'> & {
  /** a Content API read (validated): lifecycle hooks cannot widen what it returns (hooked-entities.ts) */
  contentApi?: boolean;
  /**
   * create without `publishedAt`: validated as a published entry, stored as a draft (v4's entity service, which
   * GraphQL writes through; REST's core service publishes instead)
   */
  unpublished?: boolean;
};

export interface DocumentService {
  create(ct: ContentType, data: Record<string, unknown>, read: ReadParams): Promise<Entity>;
  update(ct: ContentType, id: number, data: Record<string, unknown>, read: ReadParams): Promise<Entity | null>;
  delete(ct: ContentType, id: number, read: ReadParams): Promise<Entity | null>;
}

export interface DocumentServiceOptions {
  /** warnings about input that was accepted but not written (a dynamic-zone item of a foreign component) */
  warn?(message: string): void;
  /** the models' lifecycle hooks (v4 runs them in its database layer, below the entity service) */
  lifecycles?: Lifecycles;
  /** levels a json or blocks value may nest (config/api.js `rest.maxJsonDepth`; json-nesting.ts) */
  maxJsonDepth?: number;
}

const UNIQUE_MESSAGE = 'This attribute must be unique';

/** v4's DZ error is a plain Error with a status: its name is `Error` */
class PlainError extends ApplicationError {
  override name = 'Error';
}

async function checkUnique(tx: Executor, model: Model, ct: ContentType, data: Record<string, unknown>, selfId?: number): Promise<void> {
  const errors = [];
  const candidates = [...uniqueCandidates(ct, data)];
  // concurrent writers of the same value take turns: the second counts after the first committed
  if (candidates.length) await tx.lock(candidates.map(([name, value]) => `unique:${ct.collectionName}.${name}=${JSON.stringify(value)}`));
  for (const [name, value] of candidates) {
    const where: Record<string, unknown> = { [name]: value };
    if (selfId !== undefined) where.id = { $ne: selfId };
    if ((await countEntities(tx, model, ct, where)) > 0) errors.push({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError' as const });
  }
  if (errors.length) throw new ValidationError(errors.length === 1 ? UNIQUE_MESSAGE : `${errors.length} errors occurred`, { errors });
}

/**
 * v4's entity validation: field errors and the relations check answered together, then date conversions;
 * then v4's password transform (a password never reaches the table in clear, whichever service wrote it;
 * the entity service hashes before its transaction, so here only the core service's writes are hashed).
 */
async function validate(tx: Executor, model: Model, ct: ContentType, input: Record<string, unknown>, opts: ValidateOptions, warn: (m: string) => void) {
  const run = collectInput(model, ct, input, opts);
  const relations = await relationsIssue(tx, model, ct, input);
  const errors = relations ? [...run.errors, { path: [], message: relations, name: 'ValidationError' as const }] : run.errors;
  if (errors.length) throw validationError(errors);
  // v4 raises these from the database layer: the message only, `details: {}`
  if (run.dbErrors.length) throw new ValidationError(run.dbErrors[0].message);
  return (await hashPasswordAttributes(ct, run.data)).data;
}

/** Errors the storage raises for input it refuses -> v4's answers. */
function asClientError(err: unknown): unknown {
  if (err instanceof ConnectOrderError || err instanceof RelationInputError) return new ValidationError(err.message);
  if (err instanceof ComponentOwnershipError) return err.attr.kind === 'dynamiczone' ? new PlainError(err.message) : new ApplicationError(err.message);
  if (err instanceof WriteError) return new ValidationError(err.message);
  return err;
}

export function createDocumentService(db: Database, model: Model, options: DocumentServiceOptions = {}): DocumentService {
  const warn = options.warn ?? (() => undefined);
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const lc = options.lifecycles ?? new Lifecycles({});
  /** v4's `db.query(uid).findOne`, hooks included: the reads its entity service and entity manager make */
  const findOne = (tx: Executor, ct: ContentType, params: FindParams, read?: ReadParams) =>
    findOneHooked(tx, model, lc, ct, params, tx, read?.contentApi ? validatedRead(read) : undefined);
  /** v4's entity service passes only the selection params the request gave */
  const readBack = (tx: Executor, ct: ContentType, id: number, read: ReadParams) => findOne(tx, ct, { ...definedOf(read), where: { id } }, read);
  const guarded = <T>(fn: (tx: Executor) => Promise<T>) =>
    transactionOrHook(db, async (tx) => {
      try {
        return await fn(tx);
      } catch (err) {
        throw asClientError(err);
      }
    });

  return {
    create(ct, input, read) {
      return guarded(async (tx) => {
        const raw = { ...input };
        const unpublished = ct.draftAndPublish && !('publishedAt' in raw) && read.unpublished === true;
        if (ct.draftAndPublish && !('publishedAt' in raw)) raw.publishedAt = unpublished ? null : new Date().toISOString();
        const isDraft = ct.draftAndPublish && raw.publishedAt === null && !unpublished;
        const data = await validate(tx, model, ct, raw, { isCreate: true, isDraft, maxJsonDepth }, warn);
        await checkUnique(tx, model, ct, data);
        if (!lc.has(ct.uid, 'create')) {
          const id = await insertEntity(tx, model, ct, data);
          return (await readBack(tx, ct, id, read))!;
        }
        // v4's entity manager: beforeCreate may change the data (after validation, as in v4), afterCreate the result
        const params = hookParams({ ...definedOf(read), data });
        stampCreate(params.data);
        const states = await lc.run('beforeCreate', ct, { params }, undefined, tx);
        const id = await insertEntity(tx, model, ct, params.data);
        const result = await findOne(tx, ct, { select: params.select, populate: params.populate, where: { id } }, read);
        await lc.run('afterCreate', ct, { params, result }, states, tx);
        if (result && read.contentApi) pruneToShape(model, ct, result, read);
        return result!;
      });
    },
    update(ct, id, input, read) {
      return guarded(async (tx) => {
        // v4's entity service reads the entry first (`findOne({ where: { id } })`, hooks included)
        const current = lc.has(ct.uid, 'findOne')
          ? await findOne(tx, ct, { where: { id } })
          : (await findEntities(tx, model, ct, { where: { id }, select: ct.draftAndPublish ? ['publishedAt'] : [], limit: 1 }))[0] ?? null;
        if (!current) return null;
        const isDraft = ct.draftAndPublish && (input.publishedAt === null || (input.publishedAt === undefined && current.publishedAt === null));
        const data = await validate(tx, model, ct, input, { isCreate: false, isDraft, maxJsonDepth }, warn);
        await checkUnique(tx, model, ct, data, id);
        if (!lc.has(ct.uid, 'update')) {
          await updateEntity(tx, model, ct, id, data);
          return readBack(tx, ct, id, read);
        }
        const params = hookParams({ ...definedOf(read), where: { id } as Record<string, unknown>, data });
        stampUpdate(params.data);
        const states = await lc.run('beforeUpdate', ct, { params }, undefined, tx);
        // the entry the (possibly changed) where selects; none: v4 answers null without the after hook
        const target = params.where?.id === id && Object.keys(params.where).length === 1
          ? id
          : (await findEntities(tx, model, ct, { where: params.where, select: [], limit: 1 }))[0]?.id;
        if (target === undefined) return null;
        await updateEntity(tx, model, ct, target, params.data);
        const result = await findOne(tx, ct, { select: params.select, populate: params.populate, where: { id: target } }, read);
        await lc.run('afterUpdate', ct, { params, result }, states, tx);
        if (result && read.contentApi) pruneToShape(model, ct, result, read);
        return result;
      });
    },
    delete(ct, id, read) {
      return guarded(async (tx) => {
        const entity = await readBack(tx, ct, id, read);
        if (!entity) return null;
        if (!lc.has(ct.uid, 'delete')) {
          await deleteEntity(tx, model, ct, id);
          return entity;
        }
        // v4's entity manager: beforeDelete, its own findOne of the where (hooks included), afterDelete with
        // that entry; the entity service answers the entry it read first even when the hooks left nothing to delete
        const params = hookParams({ where: { id } as Record<string, unknown> });
        const states = await lc.run('beforeDelete', ct, { params }, undefined, tx);
        const target = await findOne(tx, ct, { where: params.where });
        if (!target) return entity;
        await deleteEntity(tx, model, ct, target.id);
        await lc.run('afterDelete', ct, { params, result: target }, states, tx);
        return entity;
      });
    },
  };
}

/** the read params that are set (v4's query object has only the keys the request gave) */
function definedOf(read: ReadParams): Partial<ReadParams> {
  const out: Partial<ReadParams> = {};
  if (read.select !== undefined) out.select = read.select;
  if (read.populate !== undefined) out.populate = read.populate;
  return out;
}
