import type { Dialect } from '../dialect';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  quote: (id) => `\`${id.replace(/`/g, '``')}\``,
  placeholder: () => '?',
  // v4 writes `lower(col) LIKE lower(?)`; SQLite's LIKE already folds ASCII case, and only ASCII, exactly as its
  // lower() does, so plain LIKE gives the same rows without a lower() per row (a scan 1.5-2.8x faster)
  likeInsensitive: (expr, p, negate) => `${expr} ${negate ? 'NOT LIKE' : 'LIKE'} ${p} ESCAPE '\\'`,
  likeDefault: (expr, p, negate) => `${expr} ${negate ? 'NOT LIKE' : 'LIKE'} ${p} ESCAPE '\\'`,
  lower: (expr) => `lower(${expr})`,
  numericParam: (p) => p,
  // a bare LIMIT parameter makes SQLite re-plan the statement on every run (read-statements.ts rowCount)
  rowCount: (p) => `+${p}`,
  noLimit: ' LIMIT -1',
  skipIndex: '+',
  bigintAsText: (expr) => `CAST(${expr} AS TEXT)`,
  // SQLite sorts NULLs first ascending and last descending, as v4 on SQLite answers
  orderItem: (expr, dir) => `${expr} ${dir === 'desc' ? 'DESC' : 'ASC'}`,
  datetimeToDb: (d) => d.getTime(),
  booleanToDb: (b) => (b ? 1 : 0),
  inList: (expr, p) => `${expr} IN (SELECT value FROM json_each(${p}))`,
  listRows: (p, alias) => `json_each(${p}) ${alias}`,
  listValue: (values) => JSON.stringify(values),
};
