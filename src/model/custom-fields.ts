// Custom fields as Strapi 4.26.2 has them: a registry (`strapi.customFields.register`, called by plugins' and the
// app's `register`) and the conversion v4 runs after every register (utils/convert-custom-field-type.js): an
// attribute `{ type: 'customField', customField: '<uid>' }` takes the registered field's type and keeps every
// other key, so the rest of the server only ever sees v4's own types.
import { ModelError } from './errors';
import type { ModelSource } from './build-model';
import type { RawAttribute } from './types';

/** v4's ALLOWED_TYPES (core/registries/custom-fields.js): no relations, media, components, zones or blocks */
export const CUSTOM_FIELD_TYPES: readonly string[] = [
  'biginteger', 'boolean', 'date', 'datetime', 'decimal', 'email', 'enumeration', 'float', 'integer', 'json',
  'password', 'richtext', 'string', 'text', 'time', 'uid',
];

/** What a plugin registers: `{ name, type, plugin?, inputSize?, ... }` (the admin part's keys are kept as given). */
export interface CustomFieldDefinition {
  name: string;
  type: string;
  plugin?: string;
  inputSize?: { default: number; isResizable: boolean };
  [key: string]: unknown;
}

export interface CustomFields {
  /** `strapi.customFields.register`: one definition or a list, each checked as v4 checks it */
  register(customField: CustomFieldDefinition | CustomFieldDefinition[]): void;
  /** the same, under the name of v4's container registry (`strapi.container.get('custom-fields').add`) */
  add(customField: CustomFieldDefinition | CustomFieldDefinition[]): void;
  /** the definition registered as `plugin::<plugin>.<name>` or `global::<name>`; throws v4's error when none is */
  get(uid: string): CustomFieldDefinition;
  /** uid -> definition, the registry's own object as v4 returns it */
  getAll(): Record<string, CustomFieldDefinition>;
  has(uid: string): boolean;
}

export interface CustomFieldsOptions {
  /**
   * Whether a plugin of that name is loaded (v4: `strapi.plugin(name)`). A definition naming a plugin that is not
   * loaded is registered as `global::<name>`, as in v4. Without it every named plugin counts as loaded.
   */
  isPlugin?: (name: string) => boolean;
}

const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** v4's checks, in its order and with its messages (plain Errors: start-up stops, as in v4). */
function validate(cf: unknown): asserts cf is CustomFieldDefinition {
  if (typeof cf !== 'object' || cf === null || !has(cf, 'name') || !has(cf, 'type')) throw new Error(`Custom fields require a 'name' and 'type' key`);
  const { name, type, inputSize } = cf as Record<string, unknown>;
  if (!CUSTOM_FIELD_TYPES.includes(type as string)) {
    throw new Error(`Custom field type: '${String(type)}' is not a valid Strapi type or it can't be used with a Custom Field`);
  }
  // v4 tests the name as a string: an undefined name passes, as 'undefined'
  if (!/^(?![0-9])[a-zA-Z0-9$_-]+$/.test(String(name))) throw new Error(`Custom field name: '${String(name)}' is not a valid object key`);
  if (inputSize) {
    if (!isPlainObject(inputSize) || !has(inputSize, 'default') || !has(inputSize, 'isResizable')) {
      throw new Error(`inputSize should be an object with 'default' and 'isResizable' keys`);
    }
    if (![4, 6, 8, 12].includes(inputSize.default as number)) throw new Error('Custom fields require a valid default input size');
    if (typeof inputSize.isResizable !== 'boolean') throw new Error('Custom fields should specify if their input is resizable');
  }
}

export function createCustomFields(options: CustomFieldsOptions = {}): CustomFields {
  const isPlugin = options.isPlugin ?? (() => true);
  const registered: Record<string, CustomFieldDefinition> = {};
  const add = (customField: CustomFieldDefinition | CustomFieldDefinition[]) => {
    // as v4: the items before a failing one stay registered
    for (const cf of Array.isArray(customField) ? customField : [customField]) {
      validate(cf);
      const uid = cf.plugin && isPlugin(cf.plugin) ? `plugin::${cf.plugin}.${cf.name}` : `global::${cf.name}`;
      if (has(registered, uid)) throw new Error(`Custom field: '${uid}' has already been registered`);
      registered[uid] = cf;
    }
  };
  return {
    register: add,
    add,
    get(uid) {
      if (!has(registered, uid)) throw new Error(`Could not find Custom Field: ${uid}`);
      return registered[uid];
    },
    getAll: () => registered,
    has: (uid) => has(registered, uid),
  };
}

/**
 * The sources with every custom-field attribute given its registered type (content types and components alike),
 * as v4 does after the last `register`. The inputs are not changed: a source with custom fields is copied, one
 * without is returned as it is. An attribute whose custom field nothing registered stops start-up, as in v4,
 * naming the schema file and the attribute.
 */
export function convertCustomFields(sources: ModelSource[], registry: Pick<CustomFields, 'has' | 'get'>): ModelSource[] {
  return sources.map((src) => {
    const attributes = src.schema?.attributes;
    if (!attributes || typeof attributes !== 'object') return src;
    let converted: Record<string, RawAttribute> | undefined;
    for (const [name, attr] of Object.entries(attributes)) {
      if (attr?.type !== 'customField') continue;
      const uid = attr.customField;
      if (typeof uid !== 'string' || !registry.has(uid)) throw unregisteredCustomField(src.file ?? src.uid, name, uid);
      converted ??= { ...attributes };
      // v4 assigns `type` in place: the key keeps its position, `customField` and the rest stay
      converted[name] = { ...attr, type: registry.get(uid).type };
    }
    return converted ? { ...src, schema: { ...src.schema, attributes: converted } } : src;
  });
}

/** v4's message, with where it comes from and what to check. */
export function unregisteredCustomField(file: string, attribute: string, uid: unknown): ModelError {
  return new ModelError(
    `Could not find Custom Field: ${String(uid)} (no plugin and no register() registers it; is its plugin installed and enabled?)`,
    file,
    attribute,
  );
}
