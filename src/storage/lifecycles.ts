// Model lifecycle hooks as v4's database layer runs them (@strapi/database `lifecycles`): the project's
// `lifecycles.js` files and the subscribers of `strapi.db.lifecycles.subscribe`, called around every
// findOne / findMany / count / create / createMany / update / updateMany / delete / deleteMany of a model.
// With no subscriber for a (model, operation) nothing runs: `has()` answers from sets computed when a
// subscriber is added, so the paths without hooks pay one Set lookup at most.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ContentType } from '../model/types';
import type { Database, Executor } from './dialect';

export const LIFECYCLE_OPERATIONS = ['create', 'createMany', 'update', 'updateMany', 'delete', 'deleteMany', 'count', 'findOne', 'findMany'] as const;
export type LifecycleOperation = (typeof LIFECYCLE_OPERATIONS)[number];
export type LifecycleAction = `before${Capitalize<LifecycleOperation>}` | `after${Capitalize<LifecycleOperation>}`;

export interface LifecycleEvent {
  action: LifecycleAction;
  /** v4's model metadata (`db.metadata.get(uid)`): the schema with `uid`, `singularName`, `tableName`, `attributes` (with `id`), `lifecycles` */
  model: Record<string, unknown>;
  /** the query params; hooks may change them (data, where) and the operation uses what they left */
  params: Record<string, any>;
  result?: any;
  /** one object per subscriber, shared by the before and after hooks of one call */
  state: Record<string, unknown>;
}

type HookFn = (event: LifecycleEvent) => unknown;
export type Subscriber = HookFn | ({ models?: string[] } & Partial<Record<LifecycleAction, HookFn>>);
/** per call: the state object of each subscriber, from the before hook to the after hook */
export type HookStates = Map<unknown, Record<string, unknown>>;

const cap = (op: string) => op[0].toUpperCase() + op.slice(1);
const OP_OF_ACTION = new Map<string, LifecycleOperation>(LIFECYCLE_OPERATIONS.flatMap((op) => [[`before${cap(op)}`, op], [`after${cap(op)}`, op]] as const));
export const READ_OPERATIONS: readonly LifecycleOperation[] = ['findOne', 'findMany', 'count'];

/** v4 runs the models' own lifecycles.js as one function subscriber (`modelsLifecyclesSubscriber`). */
const FILES = Symbol('lifecycles.js files');

/**
 * The transaction that code running now belongs to: a lifecycle hook's write transaction, or the one of
 * `strapi.db.transaction(cb)` (storage/db-transaction.ts). Writes made there (`strapi.query(...)`,
 * `strapi.entityService`) join it: the writer connection runs one transaction at a time, so a second one
 * would wait forever for the first. `root`: the `strapi.db.transaction` this belongs to, if any (its
 * commit and rollback callbacks).
 */
export interface TransactionRoot {
  commitCallbacks: Array<() => unknown>;
  rollbackCallbacks: Array<() => unknown>;
}
interface TransactionScope {
  tx: Executor;
  open: boolean;
  root?: TransactionRoot;
}
const transactionScope = new AsyncLocalStorage<TransactionScope>();
/** scopes open now, any async context: 0 (the common case) answers `currentHookTransaction` without a lookup */
let openScopes = 0;

function openScope(): TransactionScope | undefined {
  if (openScopes === 0) return undefined;
  const scope = transactionScope.getStore();
  return scope?.open ? scope : undefined;
}

/**
 * The transaction the code running now belongs to, if any (a hook's or `strapi.db.transaction`'s). Only
 * while it is open: work a hook left running (a promise it did not await) gets a transaction of its own.
 */
export function currentHookTransaction(): Executor | undefined {
  return openScope()?.tx;
}

/**
 * A write (or a transaction) started beside the transaction the running code belongs to would wait for that one
 * to end: SQLite's single writer, PostgreSQL's row locks. It fails at once instead.
 */
export function insideTransactionError(): Error {
  return new Error('This operation cannot run inside an open transaction (strapi.db.transaction or a lifecycle hook of a write: it would wait for that transaction to end): run it before or after');
}

/** Runs `fn` as code outside any transaction scope: work meant to queue after the open transaction ends. */
export function outsideTransactionScope<T>(fn: () => T): T {
  return transactionScope.exit(fn);
}

/** The `strapi.db.transaction` the code running now belongs to (open), if any. */
export function currentTransactionRoot(): TransactionRoot | undefined {
  return openScope()?.root;
}

/**
 * For code running inside an open transaction: `onEnd(committed)` once that transaction has ended. Inside
 * `strapi.db.transaction(cb)` through its callbacks; inside a lifecycle hook of a write, through the
 * transaction's `onEnd` (PostgreSQL), or a no-op transaction queued behind the write sees whether a commit
 * happened since (`dataVersion`, SQLite). False when none is open
 * (the caller then acts at once).
 */
export function whenTransactionEnds(db: Database, onEnd: (committed: boolean) => void): boolean {
  const root = currentTransactionRoot();
  if (root) {
    root.commitCallbacks.push(() => onEnd(true));
    root.rollbackCallbacks.push(() => onEnd(false));
    return true;
  }
  const tx = currentHookTransaction();
  if (!tx) return false;
  if (tx.onEnd) {
    tx.onEnd(onEnd);
    return true;
  }
  const before = db.dataVersion?.();
  // queued from outside the hook's scope, so it is not taken for a transaction nested in the write
  void outsideTransactionScope(() => db.transaction(async () => before === undefined || db.dataVersion!() !== before)).then(onEnd, () => undefined);
  return true;
}

/** `db.transaction(fn)`, or `fn` inside the transaction the running code belongs to. */
export function transactionOrHook<T>(db: Database, fn: (tx: Executor) => Promise<T>): Promise<T> {
  const tx = currentHookTransaction();
  return tx ? fn(tx) : db.transaction(fn);
}

/**
 * Runs `fn` with `tx` in scope (it receives the executor of the scope); `close()` ends the scope. Statements of
 * work left running after that (a promise not awaited, an executor kept) go to `db` instead (each write
 * its own transaction, queued after this one): the transaction they started in may have ended by then.
 */
export function runInTransactionScope<T>(tx: Executor, db: Database | undefined, root: TransactionRoot | undefined, fn: (tx: Executor) => T | Promise<T>): { result: Promise<T>; close(): void } {
  const scope: TransactionScope = { tx, open: true, root };
  if (db) {
    const target = (): Executor => (scope.open ? tx : db);
    scope.tx = {
      dialect: tx.dialect,
      all: (sql, params) => target().all(sql, params),
      get: (sql, params) => target().get(sql, params),
      run: (sql, params) => target().run(sql, params),
      insert: (sql, params) => target().insert(sql, params),
      lock: (keys) => target().lock(keys),
      onEnd: tx.onEnd && ((cb) => (scope.open ? tx.onEnd!(cb) : cb(true))),
    };
  }
  openScopes++;
  const close = () => {
    if (!scope.open) return;
    scope.open = false;
    openScopes--;
  };
  let result: Promise<T>;
  try {
    result = Promise.resolve(transactionScope.run(scope, fn, scope.tx));
  } catch (err) {
    result = Promise.reject(err);
  }
  return { result, close };
}

/** Runs a hook with its write's transaction in scope (and the `strapi.db.transaction` that write belongs to). */
async function inScope(tx: Executor, db: Database | undefined, fn: () => unknown): Promise<void> {
  const run = runInTransactionScope(tx, db, currentTransactionRoot(), () => fn());
  try {
    await run.result;
  } finally {
    run.close();
  }
}

export class Lifecycles {
  private subscribers: Array<Subscriber | typeof FILES> = [FILES];
  private readonly files: Map<string, Record<string, unknown>>;
  private readonly metadata = new Map<string, Record<string, unknown>>();
  /** a function subscriber, or one without `models`: every model */
  private everyModel = new Set<LifecycleOperation>();
  private byModel = new Map<string, Set<LifecycleOperation>>();
  /** models with a findOne, findMany or count hook, and whether every model has one */
  private readModels = new Set<string>();
  private everyModelReads = false;
  private disabled = false;
  /** true when no subscriber exists at all (the common case): the cheapest test */
  none = true;

  /** `db`: where work a hook left running goes once the hook has returned (see inScope) */
  constructor(files: Record<string, unknown>, private readonly db?: Database) {
    this.files = new Map(Object.entries(files).filter((e): e is [string, Record<string, unknown>] => typeof e[1] === 'object' && e[1] !== null));
    this.recompute();
  }

  /** a model's lifecycles module, set (or replaced) after construction: a plugin's, once its extension ran */
  setFile(uid: string, hooks: unknown): void {
    if (typeof hooks !== 'object' || hooks === null) return;
    this.files.set(uid, hooks as Record<string, unknown>);
    this.recompute();
  }

  /** v4 `strapi.db.lifecycles.subscribe`: returns the function that removes the subscriber */
  subscribe(subscriber: Subscriber): () => void {
    if (typeof subscriber !== 'function' && (typeof subscriber !== 'object' || subscriber === null)) {
      throw new Error('Invalid subscriber. Expected function or object');
    }
    this.subscribers.push(subscriber);
    this.recompute();
    return () => {
      const i = this.subscribers.indexOf(subscriber);
      if (i >= 0) this.subscribers.splice(i, 1);
      this.recompute();
    };
  }

  /** v4 `clear()`: removes every subscriber, the models' own lifecycles.js included */
  clear(): void {
    this.subscribers = [];
    this.recompute();
  }

  disable(): void {
    this.disabled = true;
    this.recompute();
  }

  enable(): void {
    this.disabled = false;
    this.recompute();
  }

  /** Does any subscriber want `op` on `uid`? */
  has(uid: string, op: LifecycleOperation): boolean {
    if (this.none) return false;
    return this.everyModel.has(op) || this.byModel.get(uid)?.has(op) === true;
  }

  /** Does any subscriber want reads (findOne, findMany, count) of `uid`? Its reads then go through JavaScript objects. */
  hasReads(uid: string): boolean {
    return !this.none && (this.everyModelReads || this.readModels.has(uid));
  }

  /** Does any subscriber want reads of any model? (a kept answer would skip them: the response cache) */
  hasAnyReads(): boolean {
    return !this.none && (this.everyModelReads || this.readModels.size > 0);
  }

  private recompute(): void {
    this.everyModel = new Set();
    this.byModel = new Map();
    const add = (uid: string, op: LifecycleOperation) => {
      let ops = this.byModel.get(uid);
      if (!ops) this.byModel.set(uid, (ops = new Set()));
      ops.add(op);
    };
    for (const s of this.subscribers) {
      if (s === FILES) {
        for (const [uid, hooks] of this.files) for (const action of Object.keys(hooks)) {
          const op = OP_OF_ACTION.get(action);
          if (op && typeof hooks[action] === 'function') add(uid, op);
        }
      } else if (typeof s === 'function') {
        for (const op of LIFECYCLE_OPERATIONS) this.everyModel.add(op);
      } else {
        for (const action of Object.keys(s)) {
          const op = OP_OF_ACTION.get(action);
          if (!op) continue;
          if (Array.isArray(s.models)) for (const uid of s.models) add(String(uid), op);
          else this.everyModel.add(op);
        }
      }
    }
    this.none = this.disabled || (this.everyModel.size === 0 && this.byModel.size === 0);
    this.everyModelReads = READ_OPERATIONS.some((op) => this.everyModel.has(op));
    this.readModels = new Set([...this.byModel].filter(([, ops]) => READ_OPERATIONS.some((op) => ops.has(op))).map(([uid]) => uid));
  }

  /** v4's `db.metadata.get(uid)`: the schema as the database layer sees it, one object per model */
  metadataOf(ct: ContentType): Record<string, unknown> {
    let meta = this.metadata.get(ct.uid);
    if (!meta) {
      const schema = ct.schema;
      meta = {
        ...schema,
        uid: ct.uid,
        modelType: ct.kind === 'component' ? 'component' : 'contentType',
        modelName: ct.modelName,
        collectionName: ct.collectionName,
        singularName: ct.kind === 'component' ? ct.modelName : ct.singularName,
        tableName: ct.collectionName,
        attributes: { id: { type: 'increments' }, ...Object.fromEntries(Object.values(ct.attributes).map((a) => [a.name, { ...a.raw }])) },
        lifecycles: this.files.get(ct.uid) ?? {},
        indexes: [],
        foreignKeys: [],
        columnToAttribute: {},
      };
      this.metadata.set(ct.uid, meta);
    }
    return meta;
  }

  /**
   * v4 `lifecycles.run(action, uid, { params, result }, states)`: each subscriber in order (a function: every
   * event; an object: its hook for this action, when `models` is absent or names the model). `tx`: the
   * transaction of the operation, which writes made by the hook join. Returns the states for the after hook.
   */
  async run(action: LifecycleAction, ct: ContentType, props: { params: Record<string, any>; result?: unknown }, states: HookStates = new Map(), tx?: Executor): Promise<HookStates> {
    if (this.disabled) return states;
    const call = (fn: HookFn, event: LifecycleEvent) => (tx ? inScope(tx, this.db, () => fn(event)) : fn(event));
    for (const s of [...this.subscribers]) {
      let fn: HookFn | undefined;
      if (s === FILES) {
        const hook = this.files.get(ct.uid)?.[action];
        if (typeof hook !== 'function') continue;
        fn = hook as HookFn;
      } else if (typeof s === 'function') {
        fn = s;
      } else {
        const hook = s[action];
        if (typeof hook !== 'function' || (s.models && !s.models.includes(ct.uid))) continue;
        fn = hook.bind(s);
      }
      const event: LifecycleEvent = { action, model: this.metadataOf(ct), state: states.get(s) ?? {}, ...props };
      await call(fn, event);
      if (event.state) states.set(s, event.state);
    }
    return states;
  }
}

/** v4's timestamps subscriber, which runs before every other: `createdAt`/`updatedAt` in `data`. */
export function stampCreate(data: Record<string, unknown>, now = new Date()): void {
  if (data.createdAt === undefined) data.createdAt = now;
  if (data.updatedAt === undefined) data.updatedAt = now;
}

export function stampUpdate(data: Record<string, unknown>, now = new Date()): void {
  data.updatedAt = now;
}
