// What a dialect's DDL file provides to the schema sync. SQLite: sqlite-ddl.ts; PostgreSQL gets its own.
import type { Dialect } from '../dialect';
import type { ColumnDef, IndexDef, TableDef } from './table-def';

export interface SchemaDdl {
  /** CREATE TABLE (with its foreign keys, unless `foreignKeys` exists) followed by its CREATE INDEX statements */
  createTable(quote: Dialect['quote'], table: TableDef): string[];
  /** the foreign keys of a new table, run once every new table exists (dialects that add them afterwards) */
  foreignKeys?(quote: Dialect['quote'], table: TableDef): string[];
  /** ALTER TABLE ... ADD COLUMN, or undefined when the column cannot be added in place */
  addColumn(quote: Dialect['quote'], table: TableDef, column: ColumnDef): string | undefined;
  createIndex(quote: Dialect['quote'], table: string, index: IndexDef): string;
  /** the SQL type this dialect gives the column */
  columnType(column: ColumnDef): string;
  /** whether a live column's declared type is the type the model wants */
  sameType(liveType: string, column: ColumnDef): boolean;
}
