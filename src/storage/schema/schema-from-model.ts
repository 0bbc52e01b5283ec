// Model -> the dialect-neutral list of tables v4 has for it: v4's persisted schema (core store,
// webhooks, content types, components, link tables) plus v4's two bookkeeping tables.
import { bookkeepingTableModels } from '../../model/internal-models';
import { snakeCase } from '../../model/names';
import type { Model } from '../../model/types';
import type { ColumnDef, ColumnType, ForeignKeyDef, IndexDef, TableDef } from './table-def';
import { v4Column, v4PersistedSchema, type V4Column, type V4Schema, type V4Table } from './v4-schema';

function toColumn(c: V4Column): ColumnDef {
  const increments = c.type === 'increments';
  const col: ColumnDef = {
    name: c.name,
    type: c.type as ColumnType,
    args: c.args,
    nullable: !c.notNullable,
    primary: increments || c.primary === true,
    autoincrement: increments,
    unsigned: c.unsigned === true,
  };
  if (c.unique === true) col.unique = true;
  const d = c.defaultTo;
  if (d !== null && d !== undefined && (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean')) col.default = d;
  return col;
}

export function tableDefFromV4(t: V4Table, origin: TableDef['origin'] = 'model'): TableDef {
  return {
    name: t.name,
    columns: t.columns.map(toColumn),
    indexes: t.indexes
      .filter((i) => i.type !== 'primary')
      .map((i): IndexDef => ({ name: i.name, columns: [...i.columns], type: i.type === 'unique' ? 'unique' : 'index' })),
    foreignKeys: t.foreignKeys.map((f): ForeignKeyDef => ({
      name: f.name,
      columns: [...f.columns],
      referencedTable: f.referencedTable,
      referencedColumns: [...f.referencedColumns],
      onDelete: (f.onDelete ? f.onDelete.toUpperCase() : 'NO ACTION') as ForeignKeyDef['onDelete'],
    })),
    origin,
  };
}

/**
 * The knex column types v4 gives its bookkeeping tables, which it creates with knex directly rather than from
 * attributes (`t.json('schema')`, `t.datetime('time', { useTz: false })`: no precision).
 */
const BOOKKEEPING_TYPES: Record<string, { type: string; args: unknown[] }> = {
  json: { type: 'json', args: [] },
  datetime: { type: 'datetime', args: [{ useTz: false }] },
};

/** strapi_migrations and strapi_database_schema, as v4 creates them (outside its model). */
export function bookkeepingTables(): TableDef[] {
  return bookkeepingTableModels().map((m) => tableDefFromV4({
    name: m.collectionName,
    indexes: [],
    foreignKeys: [],
    columns: [v4Column('id', 'increments'), ...Object.entries(m.attributes).map(([n, a]) => v4Column(snakeCase(n), a.type, undefined, BOOKKEEPING_TYPES[a.type]))],
  }, 'bookkeeping'));
}

export interface ModelSchema {
  /** what v4 would store in strapi_database_schema for this model */
  v4: V4Schema;
  /** every table: v4's model tables in v4's order, then the bookkeeping tables */
  tables: TableDef[];
}

export function modelSchema(model: Model): ModelSchema {
  const v4 = v4PersistedSchema(model);
  return { v4, tables: [...v4.tables.map((t) => tableDefFromV4(t)), ...bookkeepingTables()] };
}

export function schemaFromModel(model: Model): TableDef[] {
  return modelSchema(model).tables;
}
