// v4's `strapi.db.transaction(cb)` (@strapi/database `transaction` + `transaction-context`): project code runs
// several writes as one transaction. Every `strapi.query`, `strapi.db.query` and `strapi.entityService` call
// made inside `cb` joins it through the transaction scope of lifecycles.ts (the same one hooks use), reads
// included, so they see the transaction's own writes. A throw rolls back and rethrows; `commit()` /
// `rollback()` end it early (later statements of `cb` then run on their own, as in v4); `onCommit` /
// `onRollback` callbacks run once it ended. A nested call joins the outer transaction: its commit and
// rollback do nothing, its callbacks run when the outer one ends (v4's semantics).
import type { Database, Executor } from './dialect';
import { currentHookTransaction, currentTransactionRoot, runInTransactionScope, whenTransactionEnds, type TransactionRoot } from './lifecycles';

export interface TransactionParams {
  /** the transaction's executor (`all`/`get`/`run`/`insert` with parameterised SQL); v4 gives a knex transaction */
  trx: Executor;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  onCommit(cb: () => unknown): void;
  onRollback(cb: () => unknown): void;
}

export type TransactionCallback<T> = (params: TransactionParams) => T | Promise<T>;

/** thrown inside the writer's transaction to roll it back; never leaves this module */
const ROLLBACK = Symbol('rollback');

/** Runs each callback (all of them, even when one throws); the first error is thrown afterwards. */
function runCallbacks(callbacks: Array<() => unknown>): void {
  let first: { err: unknown } | undefined;
  for (const cb of callbacks.splice(0)) {
    try {
      const r = cb();
      if (r instanceof Promise) r.catch(() => undefined); // v4 does not await them either
    } catch (err) {
      first ??= { err };
    }
  }
  if (first) throw first.err;
}

/** `strapi.db.transaction(cb)` */
export function dbTransaction<T>(db: Database, cb: TransactionCallback<T>): Promise<T> {
  if (typeof cb !== 'function') {
    return Promise.reject(new TypeError('strapi.db.transaction(cb): Tessera needs the callback form (no manual transaction object)'));
  }
  const outer = currentHookTransaction();
  return outer ? joined(db, outer, cb) : started(db, cb);
}

/** A call inside an open transaction joins it (v4: nested commit/rollback do nothing). */
async function joined<T>(db: Database, tx: Executor, cb: TransactionCallback<T>): Promise<T> {
  const root = currentTransactionRoot();
  const noop = async () => undefined;
  if (root) {
    return cb({ trx: tx, commit: noop, rollback: noop, onCommit: (f) => void root.commitCallbacks.push(f), onRollback: (f) => void root.rollbackCallbacks.push(f) });
  }
  // inside a lifecycle hook's write (no strapi.db.transaction around it): its callbacks run once that write
  // ended, told apart by a no-op transaction queued behind it (`dataVersion` moved: it committed)
  const local: TransactionRoot = { commitCallbacks: [], rollbackCallbacks: [] };
  try {
    return await cb({ trx: tx, commit: noop, rollback: noop, onCommit: (f) => void local.commitCallbacks.push(f), onRollback: (f) => void local.rollbackCallbacks.push(f) });
  } finally {
    if (local.commitCallbacks.length || local.rollbackCallbacks.length) {
      whenTransactionEnds(db, (committed) => {
        try {
          runCallbacks(committed ? local.commitCallbacks : local.rollbackCallbacks);
        } catch {
          // v4 does not await or report them either
        }
      });
    }
  }
}

/** A transaction of its own: holds the writer until `cb` settles or `commit()`/`rollback()` is called. */
function started<T>(db: Database, cb: TransactionCallback<T>): Promise<T> {
  const root: TransactionRoot = { commitCallbacks: [], rollbackCallbacks: [] };
  let decide!: (how: 'commit' | 'rollback') => void;
  const decided = new Promise<'commit' | 'rollback'>((resolve) => (decide = resolve));
  let began!: (run: { result: Promise<T>; close(): void }) => void;
  let failed!: (err: unknown) => void;
  const running = new Promise<{ result: Promise<T>; close(): void }>((resolve, reject) => ((began = resolve), (failed = reject)));

  const params: TransactionParams = {
    trx: undefined as unknown as Executor,
    commit: () => end('commit'),
    rollback: () => end('rollback'),
    onCommit: (f) => void root.commitCallbacks.push(f),
    onRollback: (f) => void root.rollbackCallbacks.push(f),
  };
  // resolves true once committed, false once rolled back; rejects when BEGIN or COMMIT failed
  const finished = db
    .transaction(async (tx) => {
      const run = runInTransactionScope(tx, db, root, (scoped) => {
        params.trx = scoped; // statements through it after the end run on their own, as the others
        return cb(params);
      });
      close = run.close;
      if (ending) run.close(); // `cb` called commit()/rollback() before returning control
      began(run);
      if ((await decided) === 'rollback') throw ROLLBACK;
    })
    .then(
      () => true,
      (err) => {
        if (err === ROLLBACK) return false;
        throw err;
      },
    );
  finished.catch(failed); // BEGIN failed: `cb` never ran (a no-op once it did)

  let ending: Promise<void> | undefined;
  let close = () => undefined as void;
  function end(how: 'commit' | 'rollback'): Promise<void> {
    ending ??= (async () => {
      close(); // statements from here on run on their own, after this transaction (v4 clears its context too)
      decide(how);
      let committed: boolean;
      try {
        committed = await finished;
      } catch (err) {
        runCallbacks(root.rollbackCallbacks);
        throw err;
      }
      runCallbacks(committed ? root.commitCallbacks : root.rollbackCallbacks);
    })();
    return ending;
  }

  return (async () => {
    const run = await running;
    let value: T;
    try {
      value = await run.result;
    } catch (err) {
      await end('rollback').catch(() => undefined);
      throw err;
    }
    await end('commit');
    return value;
  })();
}
