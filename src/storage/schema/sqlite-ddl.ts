// TableDef -> SQLite DDL, with the column types knex gives v4 on SQLite (varchar(255), float, json, ...).
import type { Dialect } from '../dialect';
import type { ColumnDef, ForeignKeyDef, IndexDef, TableDef } from './table-def';
import type { SchemaDdl } from './ddl';

/** knex's SQLite column compiler, for v4's column types */
export function sqliteColumnType(c: ColumnDef): string {
  switch (c.type) {
    case 'increments': return 'integer';
    case 'string': return `varchar(${typeof c.args[0] === 'number' ? c.args[0] : 255})`;
    case 'text': return 'text';
    case 'integer': return 'integer';
    case 'bigInteger': return 'bigint';
    case 'double': case 'decimal': case 'float': return 'float';
    case 'boolean': return 'boolean';
    case 'date': return 'date';
    case 'time': return 'time';
    case 'datetime': case 'timestamp': return 'datetime';
    case 'jsonb': case 'json': return 'json';
    default: throw new Error(`no SQLite type for column type "${String((c as ColumnDef).type)}"`);
  }
}

/** the type family, so that `varchar(255)` and `varchar(100)`, `float` and `double`, are the same type */
function family(sqlType: string): string {
  const root = sqlType.toLowerCase().trim().match(/^[a-z ]+/)?.[0].trim() ?? '';
  switch (root) {
    case 'int': case 'integer': case 'smallint': case 'tinyint': case 'mediumint': return 'integer';
    case 'bigint': return 'bigint';
    case 'real': case 'double': case 'double precision': case 'float': case 'decimal': case 'numeric': return 'float';
    case 'timestamp': case 'datetime': return 'datetime';
    case 'json': case 'jsonb': return 'json';
    case 'bool': case 'boolean': return 'boolean';
    case 'varchar': case 'character varying': case 'nvarchar': return 'varchar';
    default: return root;
  }
}

function literal(v: string | number | boolean): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  return `'${v.replace(/'/g, "''")}'`;
}

function columnSql(q: Dialect['quote'], c: ColumnDef): string {
  if (c.autoincrement) return `${q(c.name)} integer not null primary key autoincrement`;
  let sql = `${q(c.name)} ${sqliteColumnType(c)}`;
  if (c.default !== undefined && c.default !== null) sql += ` default ${literal(c.default)}`;
  sql += c.nullable ? ' null' : ' not null';
  return sql;
}

function fkReference(q: Dialect['quote'], fk: ForeignKeyDef): string {
  return `references ${q(fk.referencedTable)} (${fk.referencedColumns.map(q).join(', ')}) on delete ${fk.onDelete}`;
}

export function createIndexSql(q: Dialect['quote'], table: string, idx: IndexDef): string {
  return `create ${idx.type === 'unique' ? 'unique ' : ''}index ${q(idx.name)} on ${q(table)} (${idx.columns.map(q).join(', ')})`;
}

export const sqliteDdl: SchemaDdl = {
  /** the table with its foreign keys inline (SQLite cannot add them later), then its indexes */
  createTable(q, t: TableDef): string[] {
    const parts = t.columns.map((c) => columnSql(q, c));
    for (const fk of t.foreignKeys) {
      parts.push(`constraint ${q(fk.name)} foreign key (${fk.columns.map(q).join(', ')}) ${fkReference(q, fk)}`);
    }
    return [`create table ${q(t.name)} (${parts.join(', ')})`, ...t.indexes.map((i) => createIndexSql(q, t.name, i))];
  },
  /** ADD COLUMN, carrying the column's single-column foreign key if it has one (allowed: default NULL) */
  addColumn(q, t: TableDef, c: ColumnDef): string | undefined {
    if (c.autoincrement || c.primary) return undefined;
    if (!c.nullable && (c.default === undefined || c.default === null)) return undefined;
    const fk = t.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === c.name);
    return `alter table ${q(t.name)} add column ${columnSql(q, c)}${fk ? ` constraint ${q(fk.name)} ${fkReference(q, fk)}` : ''}`;
  },
  createIndex: createIndexSql,
  columnType: sqliteColumnType,
  sameType: (liveType: string, c: ColumnDef) => family(liveType) === family(sqliteColumnType(c)),
};
