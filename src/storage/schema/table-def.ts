// The dialect-neutral description of the tables a Strapi v4 project uses. Column types are v4's
// logical (knex) types; each dialect's DDL file turns them into SQL.

/** v4's column types as its schema builder names them (knex methods). */
export type ColumnType =
  | 'increments' | 'string' | 'text' | 'integer' | 'bigInteger' | 'double' | 'decimal' | 'float'
  | 'boolean' | 'date' | 'time' | 'datetime' | 'timestamp' | 'jsonb' | 'json';

export interface ColumnDef {
  name: string;
  type: ColumnType;
  /** knex arguments v4 passes: varchar length, decimal precision/scale, datetime precision */
  args: unknown[];
  nullable: boolean;
  primary: boolean;
  autoincrement: boolean;
  /** MySQL only; kept so the persisted v4 schema round-trips */
  unsigned: boolean;
  /** a unique index `<table>_<column>_unique` exists for it (uid attributes) */
  unique?: boolean;
  /** database-level default (v4 never sets one for content attributes) */
  default?: string | number | boolean | null;
}

export interface IndexDef {
  name: string;
  columns: string[];
  type: 'unique' | 'index';
}

export interface ForeignKeyDef {
  name: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: 'CASCADE' | 'SET NULL' | 'RESTRICT' | 'NO ACTION';
}

export interface TableDef {
  name: string;
  columns: ColumnDef[];
  indexes: IndexDef[];
  foreignKeys: ForeignKeyDef[];
  /** 'model': part of v4's persisted schema; 'bookkeeping': strapi_migrations / strapi_database_schema */
  origin: 'model' | 'bookkeeping';
}
