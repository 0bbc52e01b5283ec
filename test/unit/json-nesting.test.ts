// The JSON nesting checks (src/json-nesting.ts): the text scan and the value walk agree, strings are not
// counted, and neither recurses (any depth, shared and cyclic parts included).
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_JSON_DEPTH, jsonTextTooDeep, jsonValueTooDeep, maxJsonDepth } from '../../src/json-nesting';

/** the nesting of a parsed value, by recursion (the oracle; only for small values) */
function depthOf(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  return 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depthOf));
}

/** a seeded random JSON value whose strings hold brackets, quotes and backslashes */
function randomValue(seed: number): unknown {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const gen = (level: number): unknown => {
    const r = rnd();
    if (level > 12 || r < 0.3) return ['x', '[{"', '\\"]', '}}\\', 1, null, true][Math.floor(rnd() * 7)];
    const n = Math.floor(rnd() * 4);
    if (r < 0.65) return Array.from({ length: n }, () => gen(level + 1));
    return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}[{"`, gen(level + 1)]));
  };
  return gen(0);
}

describe('json nesting', () => {
  it('text and value agree with the nesting, for every limit', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const value = randomValue(seed);
      const text = JSON.stringify(value);
      const depth = depthOf(value);
      for (const max of [1, depth - 1, depth, depth + 1].filter((m) => m > 0)) {
        expect({ seed, max, text: jsonTextTooDeep(text, max), value: jsonValueTooDeep(value, max) }).toEqual({ seed, max, text: depth > max, value: depth > max });
      }
    }
  });

  it('brackets in strings, escaped quotes and invalid text are no levels', () => {
    expect(jsonTextTooDeep(`{"a":"${'['.repeat(100)}"}`, 1)).toBe(false);
    expect(jsonTextTooDeep(`["\\"${'{'.repeat(100)}"]`, 1)).toBe(false);
    expect(jsonTextTooDeep(`["\\\\", [[1]]]`, 2)).toBe(true);
    expect(jsonTextTooDeep('['.repeat(65), 64)).toBe(true);
  });

  it('any depth is checked without recursion; cyclic values end', () => {
    expect(jsonTextTooDeep('['.repeat(1_000_000), 64)).toBe(true);
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    expect(jsonValueTooDeep(deep, 64)).toBe(true);
    expect(jsonValueTooDeep(deep, 200_000)).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(jsonValueTooDeep(cyclic, 64)).toBe(true);
    // a part shared by many parents is not walked once per path
    let shared: unknown = [];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    expect(jsonValueTooDeep(shared, 64)).toBe(false);
    expect(jsonValueTooDeep(shared, 40)).toBe(true);
  });

  it('config/api.js rest.maxJsonDepth over the default; nonsense keeps the default', () => {
    expect(maxJsonDepth(() => undefined)).toBe(DEFAULT_MAX_JSON_DEPTH);
    expect(maxJsonDepth((k) => (k === 'api.rest.maxJsonDepth' ? 100 : undefined))).toBe(100);
    expect(maxJsonDepth(() => '32')).toBe(32);
    for (const bad of [0, -1, 2.5, 'x']) expect(maxJsonDepth(() => bad)).toBe(DEFAULT_MAX_JSON_DEPTH);
  });
});
