// Custom fields as Strapi 4.26.2 has them: the registry's checks and messages (core/registries/custom-fields.js,
// each message as real v4 answered it), the uids it gives, and the conversion v4 runs after every register
// (utils/convert-custom-field-type.js): the registered type in place of `customField`, every other key kept.
import { describe, expect, it } from 'vitest';
import { buildModel, type ModelSource } from '../../../src/model/build-model';
import { convertCustomFields, createCustomFields, type CustomFieldDefinition } from '../../../src/model/custom-fields';
import { ModelError } from '../../../src/model/errors';

function registrationError(cf: unknown): string {
  try {
    createCustomFields().register(cf as CustomFieldDefinition);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the registration to fail');
}

describe('the custom-field registry', () => {
  it("refuses what v4 refuses, with v4's messages", () => {
    expect(registrationError({ type: 'string' })).toBe("Custom fields require a 'name' and 'type' key");
    expect(registrationError({ name: 'x' })).toBe("Custom fields require a 'name' and 'type' key");
    expect(registrationError('color')).toBe("Custom fields require a 'name' and 'type' key");
    for (const type of ['blocks', 'media', 'relation', 'component', 'customField']) {
      expect(registrationError({ name: 'x', type })).toBe(`Custom field type: '${type}' is not a valid Strapi type or it can't be used with a Custom Field`);
    }
    expect(registrationError({ name: '1abc', type: 'string' })).toBe("Custom field name: '1abc' is not a valid object key");
    expect(registrationError({ name: 'a.b', type: 'string' })).toBe("Custom field name: 'a.b' is not a valid object key");
    expect(registrationError({ name: 'x', type: 'string', inputSize: 4 })).toBe("inputSize should be an object with 'default' and 'isResizable' keys");
    expect(registrationError({ name: 'x', type: 'string', inputSize: { default: 4 } })).toBe("inputSize should be an object with 'default' and 'isResizable' keys");
    expect(registrationError({ name: 'x', type: 'string', inputSize: { default: 5, isResizable: true } })).toBe('Custom fields require a valid default input size');
    expect(registrationError({ name: 'x', type: 'string', inputSize: { default: 4, isResizable: 'yes' } })).toBe('Custom fields should specify if their input is resizable');
  });

  it('accepts every type v4 allows, names with $, _ and -, and valid input sizes', () => {
    const registry = createCustomFields();
    const types = ['biginteger', 'boolean', 'date', 'datetime', 'decimal', 'email', 'enumeration', 'float', 'integer', 'json', 'password', 'richtext', 'string', 'text', 'time', 'uid'];
    registry.register(types.map((type) => ({ name: `f_${type}`, type })));
    registry.register([{ name: '$a-b_c', type: 'string', inputSize: { default: 12, isResizable: false } }]);
    expect(Object.keys(registry.getAll())).toEqual([...types.map((t) => `global::f_${t}`), 'global::$a-b_c']);
  });

  it("gives plugin::<plugin>.<name> when the plugin is loaded, global::<name> otherwise (v4's strapi.plugin(name) check)", () => {
    const registry = createCustomFields({ isPlugin: (name) => name === 'color-picker' });
    const color = { name: 'color', plugin: 'color-picker', type: 'string' };
    registry.register(color);
    registry.register({ name: 'stray', plugin: 'no-such-plugin', type: 'text' });
    registry.register({ name: 'tone', type: 'string' });
    expect(Object.keys(registry.getAll())).toEqual(['plugin::color-picker.color', 'global::stray', 'global::tone']);
    // the definition itself, as v4's registry keeps it
    expect(registry.get('plugin::color-picker.color')).toBe(color);
    expect(registry.has('global::tone')).toBe(true);
    expect(registry.has('global::color')).toBe(false);
  });

  it('refuses a uid registered twice; in a list, those before a failing item stay registered (as v4)', () => {
    const registry = createCustomFields();
    registry.add({ name: 'tone', type: 'string' });
    expect(() => registry.register({ name: 'tone', type: 'text' })).toThrow("Custom field: 'global::tone' has already been registered");
    expect(() => registry.register([{ name: 'ok1', type: 'string' }, { name: 'bad', type: 'nope' }, { name: 'ok2', type: 'string' }]))
      .toThrow("Custom field type: 'nope' is not a valid Strapi type or it can't be used with a Custom Field");
    expect(Object.keys(registry.getAll())).toEqual(['global::tone', 'global::ok1']);
  });

  it("answers v4's error for a uid nothing registered", () => {
    expect(() => createCustomFields().get('global::nope')).toThrow('Could not find Custom Field: global::nope');
  });
});

const source = (uid: string, attributes: Record<string, unknown>, kind: ModelSource['kind'] = 'collectionType'): ModelSource => {
  const name = uid.split('.').pop()!;
  return {
    uid, kind, origin: kind === 'component' ? 'component' : 'api', modelName: name, file: `/p/${name}/schema.json`,
    schema: { collectionName: `${kind === 'component' ? 'components_shared_' : ''}${name}s`, info: { singularName: name, pluralName: `${name}s`, displayName: name }, attributes } as ModelSource['schema'],
  };
};

function registry() {
  const r = createCustomFields();
  r.register([{ name: 'color', plugin: 'color-picker', type: 'string' }, { name: 'level', type: 'integer' }]);
  return r;
}

describe('convertCustomFields', () => {
  const swatch = () => source('api::swatch.swatch', {
    name: { type: 'string' },
    color: { type: 'customField', regex: '^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$', customField: 'plugin::color-picker.color' },
    level: { type: 'customField', customField: 'global::level', required: true, options: { x: 1 } },
  });
  const tint = () => source('shared.tint', { shade: { type: 'customField', customField: 'plugin::color-picker.color' } }, 'component');
  const plain = () => source('api::plain.plain', { title: { type: 'string' } });

  it("gives each custom-field attribute its registered type in place, every other key kept (strapi.contentTypes as v4's)", () => {
    const [s, t] = convertCustomFields([swatch(), tint()], registry());
    // real v4: {"type":"string","regex":"^#...","customField":"plugin::color-picker.color"}
    expect(JSON.stringify(s.schema.attributes)).toBe(JSON.stringify({
      name: { type: 'string' },
      color: { type: 'string', regex: '^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$', customField: 'plugin::color-picker.color' },
      level: { type: 'integer', customField: 'global::level', required: true, options: { x: 1 } },
    }));
    expect(t.schema.attributes.shade).toEqual({ type: 'string', customField: 'plugin::color-picker.color' });
  });

  it('leaves its inputs untouched, and a source without custom fields as it is', () => {
    const inputs = [swatch(), plain()];
    const before = structuredClone(inputs);
    const out = convertCustomFields(inputs, registry());
    expect(inputs).toEqual(before);
    expect(out[0]).not.toBe(inputs[0]);
    expect(out[1]).toBe(inputs[1]);
  });

  it('refuses an attribute whose custom field nothing registered, naming the file and the attribute', () => {
    const ghost = source('api::ghost.ghost', { name: { type: 'string' }, thing: { type: 'customField', customField: 'plugin::ghost.thing' } });
    const err = (() => { try { convertCustomFields([plain(), ghost], registry()); } catch (e) { return e as ModelError; } })();
    expect(err).toBeInstanceOf(ModelError);
    expect(err!.file).toBe('/p/ghost/schema.json');
    expect(err!.attribute).toBe('thing');
    expect(err!.message).toMatch(/^\/p\/ghost\/schema\.json: attribute "thing": Could not find Custom Field: plugin::ghost\.thing/);
    const noUid = source('api::ghost.ghost', { thing: { type: 'customField' } });
    expect(() => convertCustomFields([noUid], registry())).toThrow('attribute "thing": Could not find Custom Field: undefined');
  });

  it('yields attributes the model reads as their underlying type, remembering the custom field', () => {
    const model = buildModel(convertCustomFields([swatch(), tint()], registry()));
    const color = model.require('api::swatch.swatch').attributes.color;
    expect(color).toMatchObject({ kind: 'scalar', type: 'string', column: 'color', regex: '^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$', customField: 'plugin::color-picker.color' });
    expect(model.require('api::swatch.swatch').attributes.level).toMatchObject({ kind: 'scalar', type: 'integer', required: true, customField: 'global::level' });
    expect(model.require('shared.tint').attributes.shade).toMatchObject({ kind: 'scalar', type: 'string' });
    expect(model.require('api::swatch.swatch').schema.attributes.color).toEqual(color.raw);
  });

  it('buildModel on a source never converted refuses with the same message', () => {
    expect(() => buildModel([swatch()])).toThrow('/p/swatch/schema.json: attribute "color": Could not find Custom Field: plugin::color-picker.color');
  });
});
