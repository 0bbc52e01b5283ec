// A `Database` seen from inside an open transaction: statements run on that transaction and
// `transaction(fn)` joins it instead of queueing a new one (which would wait for the outer one to end).
// This lets i18n run several document-service writes (the entry, then its sibling locales) as ONE
// transaction through the document service's ordinary API.
import type { Database, Executor } from '../../storage/dialect';

export function joinTransaction(tx: Executor, outer: Database): Database {
  return {
    dialect: tx.dialect,
    all: (sql, params) => tx.all(sql, params),
    get: (sql, params) => tx.get(sql, params),
    run: (sql, params) => tx.run(sql, params),
    insert: (sql, params) => tx.insert(sql, params),
    lock: (keys) => tx.lock(keys),
    transaction: (fn) => fn(tx),
    exec: () => Promise.reject(new Error('DDL cannot run inside a content transaction')),
    introspect: () => outer.introspect(),
    close: () => Promise.reject(new Error('cannot close the database from inside a transaction')),
    get statementCount() {
      return outer.statementCount;
    },
  };
}
