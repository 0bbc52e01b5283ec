// The schema Strapi v4 derives from its models and persists in `strapi_database_schema`
// (@strapi/database: metadata -> metadataToSchema), reproduced value for value and key for key, so
// that the JSON text and its sha256 hash are the ones v4 computes for the same project. v4 compares
// that hash at start: equal means "schema unchanged" and v4 touches nothing.
import crypto from 'node:crypto';
import { internalTableModels, type InternalTableModel } from '../../model/internal-models';
import { snakeCase } from '../../model/names';
import type { ContentType, Model, RawAttribute, RelationAttribute } from '../../model/types';

/** A column exactly as v4 serializes it (key order matters for the hash). */
export interface V4Column {
  name: string;
  type: string;
  args: unknown[];
  defaultTo: unknown;
  notNullable: boolean;
  unsigned: boolean;
  [extra: string]: unknown;
}
export type V4Index = { name: string; columns: string[]; type?: string | null };
export type V4ForeignKey = {
  name: string; columns: string[]; referencedTable: string; referencedColumns: string[]; onDelete?: string;
};
export interface V4Table {
  name: string;
  indexes: V4Index[];
  foreignKeys: V4ForeignKey[];
  columns: V4Column[];
}
export interface V4Schema {
  tables: V4Table[];
}

/** v4 getColumnType: attribute type -> { type, args, ...column options } */
function columnType(attrType: string): { type: string; args?: unknown[]; [k: string]: unknown } {
  switch (attrType) {
    case 'increments': return { type: 'increments', args: [{ primary: true, primaryKey: true }], notNullable: true };
    case 'password': case 'email': case 'string': case 'enumeration': return { type: 'string' };
    case 'uid': return { type: 'string', unique: true };
    case 'richtext': case 'text': return { type: 'text', args: ['longtext'] };
    case 'blocks': case 'json': return { type: 'jsonb' };
    case 'integer': return { type: 'integer' };
    case 'biginteger': return { type: 'bigInteger' };
    case 'float': return { type: 'double' };
    case 'decimal': return { type: 'decimal', args: [10, 2] };
    case 'date': return { type: 'date' };
    case 'time': return { type: 'time', args: [{ precision: 3 }] };
    case 'datetime': return { type: 'datetime', args: [{ useTz: false, precision: 6 }] };
    case 'timestamp': return { type: 'timestamp', args: [{ useTz: false, precision: 6 }] };
    case 'boolean': return { type: 'boolean' };
    default: throw new Error(`Unknown type ${attrType}`);
  }
}

/** v4 createColumn */
export function v4Column(name: string, attrType: string, column?: Record<string, unknown>, columnTypeOverride?: Record<string, unknown>): V4Column {
  const { type, args = [], ...opts } = (columnTypeOverride as ReturnType<typeof columnType> | undefined) ?? columnType(attrType);
  return {
    name,
    type,
    args,
    defaultTo: null,
    notNullable: false,
    unsigned: false,
    ...opts,
    ...(column ?? {}),
  } as V4Column;
}

const UNSIGNED = { unsigned: true };
const ORDER_COLUMN = { unsigned: true, defaultTo: null };

function plainObject(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** What v4 does with one attribute of a model's own table. */
function addAttributeColumns(table: V4Table, columnName: string, raw: RawAttribute, rel: RelationAttribute | undefined): void {
  if (raw.type === 'relation') {
    if (rel?.relation === 'morphToOne') {
      // v4 createMorphToOne: `target_id` / `target_type` whatever the attribute's name
      const mc = plainObject(raw.morphColumn) as { idColumn?: { name?: string }; typeColumn?: { name?: string } } | undefined;
      table.columns.push(v4Column(mc?.idColumn?.name ?? 'target_id', 'integer', UNSIGNED));
      table.columns.push(v4Column(mc?.typeColumn?.name ?? 'target_type', 'string'));
    } else if (rel?.joinColumn && rel.owner && rel.joinColumn.referencedTable) {
      const name = rel.joinColumn.name;
      table.columns.push(v4Column(name, 'integer', UNSIGNED));
      table.foreignKeys.push({
        name: `${table.name}_${name}_fk`,
        columns: [name],
        referencedTable: rel.joinColumn.referencedTable,
        referencedColumns: ['id'],
        onDelete: 'SET NULL',
      });
      table.indexes.push({ name: `${table.name}_${name}_fk`, columns: [name] });
    }
    return;
  }
  if (raw.type === 'component' || raw.type === 'dynamiczone' || raw.type === 'media') return;
  const column = v4Column(columnName, raw.type, plainObject(raw.column), plainObject(raw.columnType));
  if (column.unique) table.indexes.push({ type: 'unique', name: `${table.name}_${column.name}_unique`, columns: [column.name] });
  if (column.primary) table.indexes.push({ type: 'primary', name: `${table.name}_${column.name}_primary`, columns: [column.name] });
  table.columns.push(column);
}

function baseTable(name: string, schema: Record<string, unknown>): V4Table {
  return {
    name,
    indexes: Array.isArray(schema.indexes) ? structuredClone(schema.indexes as V4Index[]) : [],
    foreignKeys: Array.isArray(schema.foreignKeys) ? structuredClone(schema.foreignKeys as V4ForeignKey[]) : [],
    columns: [v4Column('id', 'increments')],
  };
}

function modelTable(ct: ContentType): V4Table {
  const table = baseTable(ct.collectionName, ct.schema);
  for (const [name, raw] of Object.entries(ct.schema.attributes)) {
    const attr = ct.attributes[name];
    addAttributeColumns(table, attr?.kind === 'scalar' ? attr.column : snakeCase(name), raw, attr?.kind === 'relation' ? attr : undefined);
  }
  return table;
}

function internalTable(m: InternalTableModel): V4Table {
  const table = baseTable(m.collectionName, {});
  for (const [name, raw] of Object.entries(m.attributes)) addAttributeColumns(table, snakeCase(name), raw, undefined);
  return table;
}

/** v4 createCompoLinkModelMeta */
function componentLinkTable(owner: string, name: string): V4Table {
  return {
    name,
    indexes: [
      { name: `${owner}_field_index`, columns: ['field'] },
      { name: `${owner}_component_type_index`, columns: ['component_type'] },
      { name: `${owner}_entity_fk`, columns: ['entity_id'] },
      { name: `${owner}_unique`, columns: ['entity_id', 'component_id', 'field', 'component_type'], type: 'unique' },
    ],
    foreignKeys: [
      { name: `${owner}_entity_fk`, columns: ['entity_id'], referencedColumns: ['id'], referencedTable: owner, onDelete: 'CASCADE' } as V4ForeignKey,
    ],
    columns: [
      v4Column('id', 'increments'),
      v4Column('entity_id', 'integer', UNSIGNED),
      v4Column('component_id', 'integer', UNSIGNED),
      v4Column('component_type', 'string'),
      v4Column('field', 'string'),
      v4Column('order', 'float', ORDER_COLUMN),
    ],
  };
}

/** v4 createJoinTable, with the names buildModel computed (the same rules) */
function joinTable(owner: ContentType, attr: RelationAttribute, target: ContentType): V4Table {
  const jt = attr.joinTable!;
  const t: V4Table = {
    name: jt.name,
    indexes: [
      { name: `${jt.name}_fk`, columns: [jt.joinColumn] },
      { name: `${jt.name}_inv_fk`, columns: [jt.inverseJoinColumn] },
      { name: `${jt.name}_unique`, columns: [jt.joinColumn, jt.inverseJoinColumn], type: 'unique' },
    ],
    foreignKeys: [
      { name: `${jt.name}_fk`, columns: [jt.joinColumn], referencedColumns: ['id'], referencedTable: owner.collectionName, onDelete: 'CASCADE' } as V4ForeignKey,
      { name: `${jt.name}_inv_fk`, columns: [jt.inverseJoinColumn], referencedColumns: ['id'], referencedTable: target.collectionName, onDelete: 'CASCADE' } as V4ForeignKey,
    ],
    columns: [
      v4Column('id', 'increments'),
      v4Column(jt.joinColumn, 'integer', UNSIGNED),
      v4Column(jt.inverseJoinColumn, 'integer', UNSIGNED),
    ],
  };
  if (jt.orderColumn) {
    t.columns.push(v4Column(jt.orderColumn, 'float', ORDER_COLUMN));
    t.indexes.push({ name: `${jt.name}_order_fk`, columns: [jt.orderColumn] });
  }
  if (jt.inverseOrderColumn) {
    t.columns.push(v4Column(jt.inverseOrderColumn, 'float', ORDER_COLUMN));
    t.indexes.push({ name: `${jt.name}_order_inv_fk`, columns: [jt.inverseOrderColumn] });
  }
  return t;
}

/** v4 createMorphToMany: `<table>_<attr>_morphs` (files_related_morphs for upload's `related`) */
function morphTable(owner: ContentType, attrName: string): V4Table {
  const name = snakeCase(`${owner.collectionName}_${attrName}_morphs`);
  const join = snakeCase(`${owner.modelName}_id`);
  const morph = snakeCase(attrName);
  return {
    name,
    indexes: [
      { name: `${name}_fk`, columns: [join] },
      { name: `${name}_order_index`, columns: ['order'] },
      { name: `${name}_id_column_index`, columns: [`${morph}_id`] },
    ],
    foreignKeys: [
      { name: `${name}_fk`, columns: [join], referencedColumns: ['id'], referencedTable: owner.collectionName, onDelete: 'CASCADE' } as V4ForeignKey,
    ],
    columns: [
      v4Column('id', 'increments'),
      v4Column(join, 'integer', UNSIGNED),
      v4Column(`${morph}_id`, 'integer', UNSIGNED),
      v4Column(`${morph}_type`, 'string'),
      v4Column('field', 'string'),
      v4Column('order', 'float', UNSIGNED),
    ],
  };
}

/** The tables that hang off one model, in the order v4's metadata loop adds them. */
function linkTables(model: Model, ct: ContentType): V4Table[] {
  const out: V4Table[] = [];
  const attrs = Object.values(ct.attributes);
  if (attrs.some((a) => a.kind === 'component' || a.kind === 'dynamiczone')) out.push(componentLinkTable(ct.collectionName, ct.componentsTable));
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (attr.kind !== 'relation') continue;
    if (attr.relation === 'morphToMany') out.push(morphTable(ct, name));
    else if (attr.owner && attr.joinTable && !attr.joinColumn && !attr.relation.startsWith('morph')) {
      out.push(joinTable(ct, attr, model.require(attr.target)));
    }
  }
  return out;
}

/**
 * The schema v4 would persist for this model: core store and webhooks, then every content type and
 * component table in model order, then the link tables. v4 orders models as core-store, webhook,
 * strapi.contentTypes (admin, plugins, apis), strapi.components: the model must be built in that order
 * for the hash to match.
 */
export function v4PersistedSchema(model: Model): V4Schema {
  const types = [...model.contentTypes.values(), ...model.components.values()];
  const tables: V4Table[] = [
    ...internalTableModels().map(internalTable),
    ...types.map(modelTable),
  ];
  for (const ct of types) tables.push(...linkTables(model, ct));
  return { tables };
}

/** v4 schemaStorage.hashSchema */
export function v4SchemaHash(schema: V4Schema): string {
  return crypto.createHash('sha256').update(JSON.stringify(schema)).digest('hex');
}
