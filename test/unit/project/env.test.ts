import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import { createEnv } from '../../../src/project/env';
import { loadDotenv, parseDotenv } from '../../../src/project/dotenv';

describe('env helper (v4 @strapi/utils semantics)', () => {
  const env = createEnv({
    STR: 'hello', EMPTY: '', INT: '42', INTX: '12abc', BAD: 'abc', FLOAT: '3.5',
    T: 'true', F: 'false', ONE: '1', UPPER: 'TRUE',
    JSON: '{"a":[1,2]}', BADJSON: '{a:1}',
    ARR: 'a, b ,c', ARRB: '[x,y]', ARRQ: '["k1", "k2"]',
    DATE: '2024-01-02T03:04:05.000Z', LEVEL: 'warn',
  });

  it('returns the raw string, or the default when unset', () => {
    expect(env('STR')).toBe('hello');
    expect(env('STR', 'd')).toBe('hello');
    expect(env('NOPE', 'd')).toBe('d');
    expect(env('NOPE')).toBeUndefined();
    // set to '' is set (v4 tests presence, not truthiness)
    expect(env('EMPTY', 'd')).toBe('');
  });

  it('int / float use parseInt / parseFloat', () => {
    expect(env.int('INT', 1)).toBe(42);
    expect(env.int('INTX')).toBe(12);
    expect(env.int('BAD', 7)).toBeNaN();
    expect(env.int('NOPE', 7)).toBe(7);
    expect(env.int('NOPE')).toBeUndefined();
    expect(env.float('FLOAT')).toBe(3.5);
    expect(env.float('NOPE', 1.5)).toBe(1.5);
  });

  it('bool is true only for the string "true"', () => {
    expect(env.bool('T', false)).toBe(true);
    expect(env.bool('F', true)).toBe(false);
    expect(env.bool('ONE', true)).toBe(false);
    expect(env.bool('UPPER', true)).toBe(false);
    expect(env.bool('EMPTY', true)).toBe(false);
    expect(env.bool('NOPE', true)).toBe(true);
    expect(env.bool('NOPE')).toBeUndefined();
  });

  it('json parses, and names the variable when invalid', () => {
    expect(env.json('JSON')).toEqual({ a: [1, 2] });
    expect(env.json('NOPE', { d: 1 })).toEqual({ d: 1 });
    expect(() => env.json('BADJSON')).toThrow(/Invalid json environment variable BADJSON/);
  });

  it('array splits on commas, strips [ ], spaces and double quotes', () => {
    expect(env.array('ARR')).toEqual(['a', 'b', 'c']);
    expect(env.array('ARRB')).toEqual(['x', 'y']);
    expect(env.array('ARRQ')).toEqual(['k1', 'k2']);
    expect(env.array('NOPE', ['d'])).toEqual(['d']);
  });

  it('date builds a Date', () => {
    expect(env.date('DATE')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    const d = new Date(0);
    expect(env.date('NOPE', d)).toBe(d);
  });

  it('oneOf returns the value when allowed, else the default', () => {
    expect(env.oneOf('LEVEL', ['info', 'warn'], 'info')).toBe('warn');
    expect(env.oneOf('STR', ['info', 'warn'], 'info')).toBe('info');
    expect(env.oneOf('NOPE', ['info', 'warn'])).toBeUndefined();
    expect(() => env.oneOf('LEVEL', ['info', 'warn'], 'debug')).toThrow(/defaultValue/);
  });

  it('reads process.env by default', () => {
    process.env.TESSERA_ENV_TEST = '5';
    try {
      expect(createEnv().int('TESSERA_ENV_TEST')).toBe(5);
    } finally {
      delete process.env.TESSERA_ENV_TEST;
    }
  });
});

describe('.env loading', () => {
  const tmpDirs: string[] = [];
  afterAll(() => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });
  it('parses dotenv syntax', () => {
    const parsed = parseDotenv([
      '# comment',
      'A=1',
      'export B = two ',
      "C='single # not a comment'",
      'D="line1\\nline2"',
      'E=bare # trailing comment',
      'F=',
      'G="multi',
      'line"',
      'A=again',
    ].join('\n'));
    expect(parsed).toEqual({
      A: 'again', B: 'two', C: 'single # not a comment', D: 'line1\nline2', E: 'bare', F: '', G: 'multi\nline',
    });
  });

  it('loads <dir>/.env without overwriting variables already set', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dotenv-'));
    tmpDirs.push(dir);
    fs.writeFileSync(path.join(dir, '.env'), 'HOST=1.2.3.4\nPORT=9999\nJWT_SECRET=abc\n');
    const target: Record<string, string | undefined> = { PORT: '4000' };
    loadDotenv(dir, target);
    expect(target).toEqual({ HOST: '1.2.3.4', PORT: '4000', JWT_SECRET: 'abc' });
  });

  it('honours ENV_PATH and ignores a missing file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dotenv-'));
    tmpDirs.push(dir);
    fs.writeFileSync(path.join(dir, 'custom.env'), 'X=from-custom\n');
    const target: Record<string, string | undefined> = { ENV_PATH: 'custom.env' };
    loadDotenv(dir, target);
    expect(target.X).toBe('from-custom');
    const empty: Record<string, string | undefined> = {};
    expect(loadDotenv(path.join(dir, 'missing'), empty)).toEqual({});
    expect(empty).toEqual({});
  });
});
