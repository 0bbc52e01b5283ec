// The Model: a normalized, validated view of a Strapi v4 project's content types and components,
// including where each attribute lives in v4's table layout. Every later stage reads this, never raw JSON.

export type ScalarType =
  | 'string' | 'text' | 'richtext' | 'enumeration' | 'email' | 'password' | 'uid'
  | 'date' | 'time' | 'datetime' | 'timestamp'
  | 'integer' | 'biginteger' | 'float' | 'decimal' | 'boolean' | 'json' | 'blocks';

export type RelationKind =
  | 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany'
  | 'morphToOne' | 'morphToMany' | 'morphOne' | 'morphMany';

/** The raw attribute as written in schema.json (kept for the validator and for strapi.contentTypes). */
export type RawAttribute = Record<string, unknown> & { type: string };

export interface AttributeBase {
  name: string;
  /** never leaves the server; never filterable, sortable or populatable */
  private: boolean;
  required: boolean;
  /** false for createdAt/updatedAt/createdBy/... : dropped from input */
  writable: boolean;
  /** attribute opts out of i18n localization (pluginOptions.i18n.localized === false) */
  localized: boolean;
  /** the custom field it was declared with (`plugin::color-picker.color`); its type is then the field's type */
  customField?: string;
  raw: RawAttribute;
}

export interface ScalarAttribute extends AttributeBase {
  kind: 'scalar';
  type: ScalarType;
  column: string;
  unique: boolean;
  default?: unknown;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  enum?: string[];
}

/** A link table as v4 names it: `<table>_<attr>_links`. Seen from the owning side. */
export interface JoinTable {
  name: string;
  /** column holding the owner row's id */
  joinColumn: string;
  /** column holding the target row's id */
  inverseJoinColumn: string;
  /** order of targets for one owner (x-to-many owners) */
  orderColumn?: string;
  /** order of owners for one target (when the inverse side is x-to-many) */
  inverseOrderColumn?: string;
}

export interface RelationAttribute extends AttributeBase {
  kind: 'relation';
  relation: RelationKind;
  target: string;
  /** this side holds the link table definition (has inversedBy, or has no mappedBy: v4's isOwner) */
  owner: boolean;
  mappedBy?: string;
  inversedBy?: string;
  /** to-many from this side */
  many: boolean;
  /** Link table seen from THIS side: on the inverse side the columns are swapped. */
  joinTable?: JoinTable;
  /** createdBy/updatedBy: a plain foreign-key column on the owner table instead of a link table */
  joinColumn?: { name: string; referencedTable: string };
}

/** Media: rows of `files_related_morphs` (file_id, related_id, related_type, field, order). */
export interface MediaAttribute extends AttributeBase {
  kind: 'media';
  multiple: boolean;
  allowedTypes?: string[];
}

/** Component: rows of `<table>_components` (entity_id, component_id, component_type, field, order). */
export interface ComponentAttribute extends AttributeBase {
  kind: 'component';
  component: string;
  repeatable: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  kind: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export type Attribute =
  | ScalarAttribute | RelationAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;

export type ModelKind = 'collectionType' | 'singleType' | 'component';

export interface ContentType {
  uid: string;
  kind: ModelKind;
  /** 'api' | 'plugin' | 'admin' | 'strapi' | 'component' */
  origin: 'api' | 'plugin' | 'admin' | 'strapi' | 'component';
  /** schema.json folder name (v4 `modelName`) */
  modelName: string;
  singularName: string;
  pluralName: string;
  /** the table */
  collectionName: string;
  /** `<table>_components`, used when the model has components or dynamic zones */
  componentsTable: string;
  displayName: string;
  draftAndPublish: boolean;
  localized: boolean;
  /** component category ('shared' for 'shared.seo'), only for components */
  category?: string;
  attributes: Record<string, Attribute>;
  /** The schema as a v4 user sees it on strapi.contentTypes[uid] / strapi.components[uid]. */
  schema: RawSchema;
  /** where it was read from, for error messages */
  file?: string;
}

export interface RawSchema {
  kind?: string;
  collectionName?: string;
  info?: Record<string, unknown>;
  options?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  attributes: Record<string, RawAttribute>;
  [key: string]: unknown;
}

export interface Model {
  contentTypes: Map<string, ContentType>;
  components: Map<string, ContentType>;
  /** uid -> model, content types and components alike */
  get(uid: string): ContentType | undefined;
  /** the model or a clear error */
  require(uid: string): ContentType;
  /** collection types and single types of the project's own APIs (what REST serves) */
  apiTypes(): ContentType[];
}
