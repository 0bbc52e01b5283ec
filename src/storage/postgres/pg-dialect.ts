// PostgreSQL's forms of the dialect's SQL, with v4's rules on PostgreSQL (docs/postgres-case-rules.md).
import type { Dialect } from '../dialect';
import { pad } from '../values';

/** a column of any type as text: v4 casts for its `…i` operators; we cast for every string operator (v4 answers 500) */
const text = (expr: string) => `CAST(${expr} AS TEXT)`;

/**
 * A Date as v4 stores it in a `timestamp without time zone` column: the wall-clock time of the server process's
 * time zone (knex/pg send the local time; PostgreSQL drops the offset). pg reads it back as local time too.
 */
export function localTimestamp(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('Invalid time value');
  const y = d.getFullYear();
  const year = y < 0 ? `${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}${y < 0 ? ' BC' : ''}`;
}

export const postgresDialect: Dialect = {
  name: 'postgres',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  placeholder: (n) => `$${n}`,
  // lower() folds Unicode on PostgreSQL, as v4's `LOWER(CAST(col AS VARCHAR)) LIKE LOWER(?)` does there
  likeInsensitive: (expr, p, negate) => `lower(${text(expr)}) ${negate ? 'NOT LIKE' : 'LIKE'} lower(${p}) ESCAPE '\\'`,
  // case-sensitive on PostgreSQL, as v4's `col LIKE ?` is there
  likeDefault: (expr, p, negate) => `${text(expr)} ${negate ? 'NOT LIKE' : 'LIKE'} ${p} ESCAPE '\\'`,
  lower: (expr) => `lower(${text(expr)})`,
  numericParam: (p) => `CAST(${p} AS numeric)`,
  rowCount: (p) => p,
  noLimit: '',
  skipIndex: '',
  bigintAsText: (expr) => text(expr),
  // PostgreSQL's own NULL placement (last ascending, first descending) is what v4 answers there
  orderItem: (expr, dir) => `${expr} ${dir === 'desc' ? 'DESC' : 'ASC'}`,
  datetimeToDb: (d) => localTimestamp(d),
  booleanToDb: (b) => b,
  inList: (expr, p) => `${expr} = ANY(${p})`,
  listValue: (values) => values,
};
