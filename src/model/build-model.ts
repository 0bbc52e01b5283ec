// Raw schema.json definitions -> the normalized Model, with v4's implicit attributes and storage names.
import { unregisteredCustomField } from './custom-fields';
import { camelCase, cloneDeep, upperFirst } from 'lodash';
import { ModelError } from './errors';
import { RELATION_KINDS, SCALAR_TYPES, isMorph, isToMany } from './attribute-kinds';
import { columnName, componentsTableName, linkTableName, snakeCase } from './names';
import type {
  Attribute, AttributeBase, ContentType, JoinTable, Model, ModelKind, RawAttribute, RawSchema,
  RelationAttribute, RelationKind, ScalarType,
} from './types';

export interface BuildModelOptions {
  /**
   * A schema mistake v4 starts with anyway (one line naming the file and attribute); without it, a Node process
   * warning.
   */
  warn?(message: string): void;
}

export interface ModelSource {
  uid: string;
  kind: ModelKind;
  origin: ContentType['origin'];
  /** folder or file name: `article`, `seo` */
  modelName: string;
  schema: RawSchema;
  file?: string;
}

const ADMIN_USER = 'admin::user';

/** v4 adds these to every content type (not components), in this order. */
function implicitAttributes(src: ModelSource, hasAdminUser: boolean): Record<string, RawAttribute> {
  const out: Record<string, RawAttribute> = {
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
  };
  if (src.schema.options?.draftAndPublish === true) {
    out.publishedAt = { type: 'datetime', configurable: false, writable: true, visible: false };
  }
  if (hasAdminUser) {
    // v4: private unless the schema's `options.populateCreatorFields` shows them (then populate, filters and sort may name them)
    const isPrivate = (src.schema.options as { populateCreatorFields?: unknown } | undefined)?.populateCreatorFields !== true;
    const by = { type: 'relation', relation: 'oneToOne', target: ADMIN_USER, configurable: false, writable: false, visible: false, useJoinTable: false, private: isPrivate };
    out.createdBy = { ...by };
    out.updatedBy = { ...by };
  }
  if (isLocalizedSchema(src.schema)) {
    out.localizations = { type: 'relation', relation: 'oneToMany', target: src.uid, writable: true, private: false, configurable: false, visible: false };
    out.locale = { type: 'string', configurable: false, writable: true, visible: false, private: false };
  }
  return out;
}

function isLocalizedSchema(schema: RawSchema): boolean {
  const i18n = (schema.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  return i18n?.localized === true;
}

const TIMESTAMP_NAMES = new Set(['createdAt', 'updatedAt']);

function baseOf(name: string, raw: RawAttribute): AttributeBase {
  const i18n = (raw.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  return {
    name,
    private: raw.private === true || raw.type === 'password',
    required: raw.required === true,
    writable: raw.writable !== false && !TIMESTAMP_NAMES.has(name),
    localized: i18n?.localized !== false,
    ...(typeof raw.customField === 'string' ? { customField: raw.customField } : {}),
    raw,
  };
}

function num(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function normalizeAttribute(src: ModelSource, name: string, raw: RawAttribute): Attribute {
  const fail = (msg: string): never => { throw new ModelError(msg, src.file ?? src.uid, name); };
  if (!raw || typeof raw !== 'object' || typeof raw.type !== 'string') fail('has no "type"');
  const base = baseOf(name, raw);
  const type = raw.type;
  if (SCALAR_TYPES.has(type as ScalarType)) {
    if (type === 'enumeration' && !(Array.isArray(raw.enum) && raw.enum.every((e) => typeof e === 'string'))) {
      fail('an enumeration needs an "enum" array of strings');
    }
    return {
      ...base,
      kind: 'scalar',
      type: type as ScalarType,
      column: columnName(name),
      unique: raw.unique === true || type === 'uid',
      default: raw.default,
      min: num(raw.min),
      max: num(raw.max),
      minLength: num(raw.minLength),
      maxLength: num(raw.maxLength),
      regex: typeof raw.regex === 'string' ? raw.regex : undefined,
      enum: type === 'enumeration' ? (raw.enum as string[]) : undefined,
    };
  }
  switch (type) {
    case 'relation': {
      const relation = raw.relation as RelationKind;
      if (!RELATION_KINDS.has(relation)) fail(`unknown relation "${String(raw.relation)}"`);
      if (!isMorph(relation) && typeof raw.target !== 'string') fail('a relation needs a "target"');
      return {
        ...base,
        kind: 'relation',
        relation,
        target: (raw.target as string) ?? '',
        // v4 isOwner: unidirectional, or the side with inversedBy
        owner: typeof raw.inversedBy === 'string' || typeof raw.mappedBy !== 'string',
        mappedBy: typeof raw.mappedBy === 'string' ? raw.mappedBy : undefined,
        inversedBy: typeof raw.inversedBy === 'string' ? raw.inversedBy : undefined,
        many: isToMany(relation),
      };
    }
    case 'media':
      return {
        ...base,
        kind: 'media',
        multiple: raw.multiple === true,
        allowedTypes: Array.isArray(raw.allowedTypes) ? (raw.allowedTypes as string[]) : undefined,
      };
    case 'component':
      if (typeof raw.component !== 'string') fail('a component attribute needs "component"');
      return {
        ...base,
        kind: 'component',
        component: raw.component as string,
        repeatable: raw.repeatable === true,
        min: num(raw.min),
        max: num(raw.max),
      };
    case 'dynamiczone':
      if (!Array.isArray(raw.components) || raw.components.length === 0) fail('a dynamic zone needs a "components" list');
      return { ...base, kind: 'dynamiczone', components: raw.components as string[], min: num(raw.min), max: num(raw.max) };
    case 'customField':
      // convertCustomFields gives every registered one its type first: this one nothing registered
      throw unregisteredCustomField(src.file ?? src.uid, name, raw.customField);
    default:
      return fail(`unknown attribute type "${type}"`);
  }
}

function buildType(src: ModelSource, hasAdminUser: boolean): ContentType {
  const s = src.schema;
  if (!s || typeof s !== 'object' || !s.attributes || typeof s.attributes !== 'object') {
    throw new ModelError('schema has no "attributes" object', src.file ?? src.uid);
  }
  const info = (s.info ?? {}) as Record<string, unknown>;
  const isComponent = src.kind === 'component';
  const [category] = isComponent ? src.uid.split('.') : [undefined];
  const singularName = String(info.singularName ?? src.modelName);
  const pluralName = String(info.pluralName ?? `${singularName}s`);
  const collectionName = typeof s.collectionName === 'string' && s.collectionName
    ? s.collectionName
    : isComponent ? `components_${snakeCase(category!)}_${snakeCase(pluralName)}` : defaultTableName(src.uid, singularName);
  for (const reserved of ['id'] as const) {
    if (reserved in s.attributes) throw new ModelError(`"${reserved}" is a reserved attribute name`, src.file ?? src.uid, reserved);
  }
  const rawAttributes: Record<string, RawAttribute> = {
    ...s.attributes,
    ...(isComponent ? {} : implicitAttributes(src, hasAdminUser)),
  };
  const attributes: Record<string, Attribute> = {};
  for (const [name, raw] of Object.entries(rawAttributes)) attributes[name] = normalizeAttribute(src, name, raw);
  for (const [name, attr] of Object.entries(attributes)) {
    if (attr.kind === 'relation' && attr.raw.useJoinTable === false) {
      attr.joinColumn = { name: `${columnName(name)}_id`, referencedTable: '' };
    }
  }
  return {
    uid: src.uid,
    kind: src.kind,
    origin: src.origin,
    modelName: src.modelName,
    singularName,
    pluralName,
    collectionName,
    componentsTable: componentsTableName(collectionName),
    displayName: String(info.displayName ?? info.name ?? src.modelName),
    draftAndPublish: !isComponent && s.options?.draftAndPublish === true,
    localized: !isComponent && isLocalizedSchema(s),
    category,
    attributes,
    schema: {
      ...s,
      collectionName,
      attributes: rawAttributes,
      uid: src.uid,
      modelType: isComponent ? 'component' : 'contentType',
      modelName: src.modelName,
      kind: isComponent ? undefined : src.kind,
      // v4's content-type objects also carry `actions` and `lifecycles` (empty unless the definition has them)
      ...(isComponent ? { category } : { ...contentTypeNames(src), connection: 'default', actions: s.actions ?? {}, lifecycles: s.lifecycles ?? {} }),
      __schema__: s.__schema__ ?? asWritten(s, isComponent),
    },
    file: src.file,
  };
}

/**
 * v4's `__schema__`: the schema as its file wrote it (a content type's definition keys and kind; a component's
 * whole file), which plugins read to tell written attributes from the ones v4 adds
 */
function asWritten(s: RawSchema, isComponent: boolean): Record<string, unknown> {
  const keys = ['connection', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes'] as const;
  const written: Record<string, unknown> = isComponent ? cloneDeep(s) : {};
  if (!isComponent) {
    for (const k of keys) if (s[k] !== undefined) written[k] = cloneDeep(s[k]);
    written.kind = s.kind ?? 'collectionType';
  }
  // custom fields stand as their underlying type here (custom-fields.ts); their file wrote `customField`
  for (const attr of Object.values((written.attributes ?? {}) as Record<string, RawAttribute>)) {
    if (typeof attr?.customField === 'string') attr.type = 'customField';
  }
  return written;
}

/**
 * The table of a content type whose schema names none, as v4's createContentType names it: a plugin's
 * `<plugin>_<singularName>` in lower case (a plugin that writes `collectionName` inside `info` gets this too),
 * an API's its singularName as written.
 */
function defaultTableName(uid: string, singularName: string): string {
  const plugin = /^plugin::([^.]+)\./.exec(uid)?.[1];
  return plugin ? `${plugin}_${singularName}`.toLowerCase() : singularName;
}

/**
 * v4's `globalId` of a content type (`Article`, `TodoTask` for `plugin::todo.task`), `plugin` of a plugin's and
 * `apiName` of an API's (plugins list the project's types by it, e.g. `Object.values(strapi.contentTypes)
 * .filter((ct) => ct.apiName)`)
 */
function contentTypeNames(src: ModelSource): { globalId: unknown; plugin?: string; apiName?: string } {
  const m = /^(?:plugin::([^.]+)|(admin|strapi)::)/.exec(src.uid);
  const prefix = m?.[1] ?? m?.[2];
  const globalId = src.schema.globalId ?? upperFirst(camelCase(prefix ? `${prefix}-${src.modelName}` : src.modelName));
  if (m?.[1]) return { globalId, plugin: m[1] };
  const apiName = /^api::([^.]+)\./.exec(src.uid)?.[1];
  return apiName ? { globalId, apiName } : { globalId };
}

/** The owner side's link table, named as v4's database metadata names it. */
function ownerJoinTable(owner: ContentType, name: string, attr: RelationAttribute, target: ContentType, inverse?: RelationAttribute): JoinTable {
  const joinColumn = snakeCase(`${owner.modelName}_id`);
  let inverseJoinColumn = snakeCase(`${target.modelName}_id`);
  if (inverseJoinColumn === joinColumn) inverseJoinColumn = `inv_${inverseJoinColumn}`;
  const jt: JoinTable = { name: linkTableName(owner.collectionName, name), joinColumn, inverseJoinColumn };
  if (attr.many) jt.orderColumn = snakeCase(`${target.modelName}_order`);
  if (inverse && inverse.many) {
    let inv = snakeCase(`${owner.modelName}_order`);
    if (inv === jt.orderColumn) inv = `inv_${inv}`;
    jt.inverseOrderColumn = inv;
  }
  return jt;
}

function swapped(jt: JoinTable): JoinTable {
  return {
    name: jt.name,
    joinColumn: jt.inverseJoinColumn,
    inverseJoinColumn: jt.joinColumn,
    orderColumn: jt.inverseOrderColumn,
    inverseOrderColumn: jt.orderColumn,
  };
}

function resolveReferences(all: Map<string, ContentType>, warn: (message: string) => void): void {
  for (const ct of all.values()) {
    const where = ct.file ?? ct.uid;
    for (const [name, attr] of Object.entries(ct.attributes)) {
      if (attr.kind === 'component') {
        const c = all.get(attr.component);
        if (!c || c.kind !== 'component') throw new ModelError(`component "${attr.component}" does not exist`, where, name);
      } else if (attr.kind === 'dynamiczone') {
        for (const uid of attr.components) {
          const c = all.get(uid);
          if (!c || c.kind !== 'component') throw new ModelError(`component "${uid}" does not exist`, where, name);
        }
      } else if (attr.kind === 'relation' && !isMorph(attr.relation)) {
        const target = all.get(attr.target);
        if (!target || target.kind === 'component') throw new ModelError(`relation target "${attr.target}" does not exist`, where, name);
        // v4's database metadata refuses these two (createOneToMany, createManyToOne)
        if (attr.relation === 'oneToMany' && attr.owner && attr.inversedBy) {
          throw new ModelError('one side of a oneToMany cannot be the owner side in a bidirectional relation (use mappedBy)', where, name);
        }
        if (attr.relation === 'manyToOne' && !attr.owner) {
          throw new ModelError('The many side of a manyToOne must be the owning side (use inversedBy)', where, name);
        }
        if (attr.joinColumn) { attr.joinColumn.referencedTable = target.collectionName; continue; }
        if (!attr.owner) continue;
        let inverse: RelationAttribute | undefined;
        if (attr.inversedBy) {
          const inv = target.attributes[attr.inversedBy];
          if (!inv || inv.kind !== 'relation' || inv.target !== ct.uid) {
            throw new ModelError(`inversedBy "${attr.inversedBy}" is not a relation of "${attr.target}" back to "${ct.uid}"`, where, name);
          }
          inverse = inv;
        }
        attr.joinTable = ownerJoinTable(ct, name, attr, target, inverse);
        if (inverse) inverse.joinTable = swapped(attr.joinTable);
      }
    }
  }
  // v4 links an inverse side only from its owner's inversedBy: one whose owner does not name it back gets no link
  // table and starts anyway (populate answers nothing, writes are dropped, filters reach the wrong table). It is
  // left out of the model; strapi.contentTypes still shows it, as v4's does.
  for (const ct of all.values()) {
    for (const [name, attr] of Object.entries(ct.attributes)) {
      if (attr.kind !== 'relation' || attr.owner || attr.joinTable || isMorph(attr.relation)) continue;
      const why = unlinkedInverseSide(all.get(attr.target)!, ct.uid, name, attr.mappedBy!);
      warn(new ModelError(`${why}: v4 never links this side, so it is left out (no populate, filters or writes)`, ct.file ?? ct.uid, name).message);
      delete ct.attributes[name];
    }
  }
}

/** why the owner side named by `mappedBy` does not link back to `inverseName` of `inverseUid` */
function unlinkedInverseSide(target: ContentType, inverseUid: string, inverseName: string, mappedBy: string): string {
  const owner = target.attributes[mappedBy];
  const named = `mappedBy "${mappedBy}"`;
  if (!owner) return `${named} names no attribute of "${target.uid}"`;
  if (owner.kind !== 'relation') return `${named} names a ${owner.kind} attribute of "${target.uid}", not a relation`;
  if (owner.target !== inverseUid) return `${named} names a relation of "${target.uid}" to "${owner.target}", not to "${inverseUid}"`;
  return `${named} names a relation of "${target.uid}" whose inversedBy is not "${inverseName}"`;
}

export function buildModel(sources: ModelSource[], options: BuildModelOptions = {}): Model {
  const warn = options.warn ?? ((message: string) => process.emitWarning(message, 'TesseraModelWarning'));
  const all = new Map<string, ContentType>();
  const hasAdminUser = sources.some((s) => s.uid === ADMIN_USER);
  const tables = new Map<string, string>();
  for (const src of sources) {
    if (all.has(src.uid)) throw new ModelError(`"${src.uid}" is defined twice`, src.file ?? src.uid);
    const ct = buildType(src, hasAdminUser);
    const clash = tables.get(ct.collectionName);
    if (clash) throw new ModelError(`collectionName "${ct.collectionName}" is already used by "${clash}"`, src.file ?? src.uid);
    tables.set(ct.collectionName, ct.uid);
    all.set(src.uid, ct);
  }
  resolveReferences(all, warn);
  const contentTypes = new Map([...all].filter(([, ct]) => ct.kind !== 'component'));
  const components = new Map([...all].filter(([, ct]) => ct.kind === 'component'));
  const apiTypes = [...contentTypes.values()].filter((ct) => ct.origin === 'api');
  return {
    contentTypes,
    components,
    get: (uid) => all.get(uid),
    require(uid) {
      const ct = all.get(uid);
      if (!ct) throw new Error(`Model "${uid}" not found`);
      return ct;
    },
    apiTypes: () => apiTypes,
  };
}
