// TableDef -> PostgreSQL DDL, with the column types knex gives v4 on PostgreSQL (varchar(255), double
// precision, numeric(10,2), timestamp(6), jsonb, ...). Foreign keys come after every table exists (knex
// adds them with ALTER TABLE), so tables may reference each other in any order.
import type { Dialect } from '../dialect';
import type { ColumnDef, ForeignKeyDef, IndexDef, TableDef } from './table-def';
import type { SchemaDdl } from './ddl';

function precision(c: ColumnDef, fallback: number): number {
  const opts = c.args.find((a): a is { precision?: unknown } => typeof a === 'object' && a !== null);
  return typeof opts?.precision === 'number' ? opts.precision : fallback;
}

/** knex's PostgreSQL column compiler, for v4's column types */
export function postgresColumnType(c: ColumnDef): string {
  switch (c.type) {
    case 'increments': return 'serial';
    case 'string': return `varchar(${typeof c.args[0] === 'number' ? c.args[0] : 255})`;
    case 'text': return 'text';
    case 'integer': return 'integer';
    case 'bigInteger': return 'bigint';
    case 'double': return 'double precision';
    case 'decimal': return `decimal(${typeof c.args[0] === 'number' ? c.args[0] : 8}, ${typeof c.args[1] === 'number' ? c.args[1] : 2})`;
    case 'float': return 'real';
    case 'boolean': return 'boolean';
    case 'date': return 'date';
    case 'time': {
      const p = precision(c, -1);
      return p < 0 ? 'time' : `time(${p})`;
    }
    // knex: `timestamp` without a precision unless one is given (v4's attributes give 6; its bookkeeping none)
    case 'datetime': case 'timestamp': {
      const p = precision(c, -1);
      return p < 0 ? 'timestamp' : `timestamp(${p})`;
    }
    case 'jsonb': return 'jsonb';
    case 'json': return 'json';
    default: throw new Error(`no PostgreSQL type for column type "${String((c as ColumnDef).type)}"`);
  }
}

/** the type family as information_schema names it, so that varchar(255) and varchar(100) are the same type */
function family(sqlType: string): string {
  const t = sqlType.toLowerCase().trim();
  if (/^(serial|integer|int|int4)\b/.test(t)) return 'integer';
  if (/^(bigint|int8|bigserial)\b/.test(t)) return 'bigint';
  if (/^(varchar|character varying)\b/.test(t)) return 'varchar';
  if (/^(double precision|float8|real|float4|decimal|numeric)\b/.test(t)) return 'number';
  if (/^(timestamp)\b/.test(t)) return 'timestamp';
  if (/^(time)\b/.test(t)) return 'time';
  if (/^(json|jsonb)\b/.test(t)) return 'json';
  if (/^(bool|boolean)\b/.test(t)) return 'boolean';
  return t.match(/^[a-z ]+/)?.[0].trim() ?? t;
}

function literal(v: string | number | boolean): string {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return `'${v.replace(/'/g, "''")}'`;
}

function columnSql(q: Dialect['quote'], c: ColumnDef): string {
  if (c.autoincrement) return `${q(c.name)} serial primary key`;
  let sql = `${q(c.name)} ${postgresColumnType(c)}`;
  if (c.default !== undefined && c.default !== null) sql += ` default ${literal(c.default)}`;
  sql += c.nullable ? ' null' : ' not null';
  return sql;
}

function fkSql(q: Dialect['quote'], table: string, fk: ForeignKeyDef): string {
  return `alter table ${q(table)} add constraint ${q(fk.name)} foreign key (${fk.columns.map(q).join(', ')}) references ${q(fk.referencedTable)} (${fk.referencedColumns.map(q).join(', ')}) on delete ${fk.onDelete}`;
}

function createIndexSql(q: Dialect['quote'], table: string, idx: IndexDef): string {
  // knex makes a unique index a constraint on PostgreSQL (as v4's tables have them)
  if (idx.type === 'unique') return `alter table ${q(table)} add constraint ${q(idx.name)} unique (${idx.columns.map(q).join(', ')})`;
  return `create index ${q(idx.name)} on ${q(table)} (${idx.columns.map(q).join(', ')})`;
}

export const postgresDdl: SchemaDdl = {
  createTable(q, t: TableDef): string[] {
    return [`create table ${q(t.name)} (${t.columns.map((c) => columnSql(q, c)).join(', ')})`, ...t.indexes.map((i) => createIndexSql(q, t.name, i))];
  },
  foreignKeys(q, t: TableDef): string[] {
    return t.foreignKeys.map((fk) => fkSql(q, t.name, fk));
  },
  addColumn(q, t: TableDef, c: ColumnDef): string | undefined {
    if (c.autoincrement || c.primary) return undefined;
    if (!c.nullable && (c.default === undefined || c.default === null)) return undefined;
    const fk = t.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === c.name);
    const ref = fk ? ` constraint ${q(fk.name)} references ${q(fk.referencedTable)} (${fk.referencedColumns.map(q).join(', ')}) on delete ${fk.onDelete}` : '';
    return `alter table ${q(t.name)} add column ${columnSql(q, c)}${ref}`;
  },
  createIndex: createIndexSql,
  columnType: postgresColumnType,
  sameType: (liveType: string, c: ColumnDef) => family(liveType) === family(postgresColumnType(c)),
};
