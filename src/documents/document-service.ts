// Writes through the Content API: validate the payload against the model (relations included), check
// uniqueness, then write everything in ONE transaction and read the entry back. Any failure rolls back.
import { ApplicationError, ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import type { Entity, FindParams } from '../query/types';
import type { Database, Executor } from '../storage/dialect';
import { countEntities, findEntities } from '../storage/read-entities';
import { deleteEntity, insertEntity, updateEntity } from '../storage/write-entities';
import { ComponentOwnershipError, WriteError } from '../storage/write-errors';
import { ConnectOrderError } from '../storage/relation-order';
import { RelationInputError } from '../storage/relation-ops';
import { relationsIssue } from './relation-checks';
import { collectInput, uniqueCandidates, validationError, type ValidateOptions } from './validate-input';

export type ReadParams = Pick<FindParams, 'select' | 'populate'>;

export interface DocumentService {
  create(ct: ContentType, data: Record<string, unknown>, read: ReadParams): Promise<Entity>;
  update(ct: ContentType, id: number, data: Record<string, unknown>, read: ReadParams): Promise<Entity | null>;
  delete(ct: ContentType, id: number, read: ReadParams): Promise<Entity | null>;
}

export interface DocumentServiceOptions {
  /** warnings about input that was accepted but not written (a dynamic-zone item of a foreign component) */
  warn?(message: string): void;
}

const UNIQUE_MESSAGE = 'This attribute must be unique';

/** v4's DZ error is a plain Error with a status: its name is `Error` */
class PlainError extends ApplicationError {
  override name = 'Error';
}

async function checkUnique(tx: Executor, model: Model, ct: ContentType, data: Record<string, unknown>, selfId?: number): Promise<void> {
  const errors = [];
  for (const [name, value] of uniqueCandidates(ct, data)) {
    const where: Record<string, unknown> = { [name]: value };
    if (selfId !== undefined) where.id = { $ne: selfId };
    if ((await countEntities(tx, model, ct, where)) > 0) errors.push({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError' as const });
  }
  if (errors.length) throw new ValidationError(errors.length === 1 ? UNIQUE_MESSAGE : `${errors.length} errors occurred`, { errors });
}

/** v4's entity validation: field errors and the relations check answered together, then date conversions. */
async function validate(tx: Executor, model: Model, ct: ContentType, input: Record<string, unknown>, opts: ValidateOptions, warn: (m: string) => void) {
  const run = collectInput(model, ct, input, opts);
  const relations = await relationsIssue(tx, model, ct, input);
  const errors = relations ? [...run.errors, { path: [], message: relations, name: 'ValidationError' as const }] : run.errors;
  if (errors.length) throw validationError(errors);
  // v4 raises these from the database layer: the message only, `details: {}`
  if (run.dbErrors.length) throw new ValidationError(run.dbErrors[0].message);
  for (const item of run.dropped) warn(`${ct.uid}: dynamic-zone item ${item} is not a component of that zone; it was not saved`);
  return run.data;
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
  const readBack = (tx: Executor, ct: ContentType, id: number, read: ReadParams) =>
    findEntities(tx, model, ct, { ...read, where: { id }, limit: 1 }).then((r) => r[0] ?? null);
  const guarded = <T>(fn: (tx: Executor) => Promise<T>) =>
    db.transaction(async (tx) => {
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
        if (ct.draftAndPublish && !('publishedAt' in raw)) raw.publishedAt = new Date().toISOString();
        const isDraft = ct.draftAndPublish && raw.publishedAt === null;
        const data = await validate(tx, model, ct, raw, { isCreate: true, isDraft }, warn);
        await checkUnique(tx, model, ct, data);
        const id = await insertEntity(tx, model, ct, data);
        return (await readBack(tx, ct, id, read))!;
      });
    },
    update(ct, id, input, read) {
      return guarded(async (tx) => {
        const current = await findEntities(tx, model, ct, { where: { id }, select: ct.draftAndPublish ? ['publishedAt'] : [], limit: 1 });
        if (!current.length) return null;
        const isDraft = ct.draftAndPublish && (input.publishedAt === null || (input.publishedAt === undefined && current[0].publishedAt === null));
        const data = await validate(tx, model, ct, input, { isCreate: false, isDraft }, warn);
        await checkUnique(tx, model, ct, data, id);
        await updateEntity(tx, model, ct, id, data);
        return readBack(tx, ct, id, read);
      });
    },
    delete(ct, id, read) {
      return guarded(async (tx) => {
        const entity = await readBack(tx, ct, id, read);
        if (!entity) return null;
        await deleteEntity(tx, model, ct, id);
        return entity;
      });
    },
  };
}
