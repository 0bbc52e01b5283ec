// fileInfo validation with v4's (yup) messages, as recorded from Strapi 4.26.2.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors';
import { parseFileInfo } from '../../../src/plugins/upload/file-info';

function errorOf(fn: () => unknown): { message: string; details: unknown } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return { message: (err as ValidationError).message, details: (err as ValidationError).details };
  }
  throw new Error('no error');
}

describe('one file', () => {
  it('takes an object or a JSON string; numbers and booleans become strings; unknown keys are dropped', () => {
    expect(parseFileInfo(undefined, false)).toBeUndefined();
    expect(parseFileInfo('{"name":"a.png","alternativeText":null,"foo":1}', false)).toEqual({ name: 'a.png', alternativeText: null });
    expect(parseFileInfo({ name: 5, caption: true }, false)).toEqual({ name: '5', caption: 'true' });
  });

  it('answers bad JSON and non-objects as v4 does', () => {
    const bad = errorOf(() => parseFileInfo('{bad', false));
    expect(bad.message).toBe('fileInfo must be a `object` type, but the final value was: `null` (cast from the value `"{bad"`).');
    expect(bad.details).toEqual({ errors: [{ path: ['fileInfo'], message: bad.message, name: 'ValidationError' }] });
    expect(errorOf(() => parseFileInfo('[{"name":"arr.png"}]', false)).message)
      .toBe('fileInfo must be a `object` type, but the final value was: `null` (cast from the value `"[{"name":"arr.png"}]"`).');
    expect(errorOf(() => parseFileInfo('{"name":{"x":1}}', false)).message)
      .toBe('fileInfo.name must be a `string` type, but the final value was: `{\n  "x": "1"\n}`.');
  });
});

describe('several files', () => {
  it('takes an array (or a JSON array, or repeated fields) of objects', () => {
    expect(parseFileInfo('[{"caption":"a"},{"caption":"b"}]', true)).toEqual([{ caption: 'a' }, { caption: 'b' }]);
    expect(parseFileInfo(['{"caption":"a"}', '{"caption":"b"}'], true)).toEqual([{ caption: 'a' }, { caption: 'b' }]);
  });

  it('answers a lone object and bad entries as v4 does', () => {
    expect(errorOf(() => parseFileInfo('{"name":"a.png"}', true)).message)
      .toBe('fileInfo must be a `array` type, but the final value was: `null` (cast from the value `"{"name":"a.png"}"`).');
    const e = errorOf(() => parseFileInfo(['{"name":"a.png"}', '{bad'], true));
    expect(e.message).toBe('fileInfo[1] must be a `object` type, but the final value was: `null` (cast from the value `"{bad"`).');
    expect((e.details as { errors: Array<{ path: string[] }> }).errors[0].path).toEqual(['fileInfo', '1']);
    expect(errorOf(() => parseFileInfo(['{bad', '[]'], true)).message).toBe('2 errors occurred');
  });
});
