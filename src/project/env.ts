// The `env` helper handed to v4 config files (`module.exports = ({ env }) => ...`), same semantics
// as @strapi/utils v4 env-helper, but reading from an injectable env object so tests need no globals.
import _ from 'lodash';

export type EnvSource = Record<string, string | undefined>;

export interface EnvHelper {
  <T = string>(key: string, defaultValue?: T): string | T | undefined;
  int(key: string, defaultValue?: number): number | undefined;
  float(key: string, defaultValue?: number): number | undefined;
  bool(key: string, defaultValue?: boolean): boolean | undefined;
  json(key: string, defaultValue?: unknown): unknown;
  array(key: string, defaultValue?: string[]): string[] | undefined;
  date(key: string, defaultValue?: Date): Date | undefined;
  oneOf<T>(key: string, expectedValues: T[], defaultValue?: T): T | undefined;
}

export function createEnv(source: EnvSource = process.env): EnvHelper {
  // v4 tests presence with _.has: a variable set to '' counts as set.
  const has = (key: string): boolean => _.has(source, key) && source[key] !== undefined;
  const raw = (key: string): string => source[key] ?? '';

  const env = (<T>(key: string, defaultValue?: T) => (has(key) ? source[key] : defaultValue)) as EnvHelper;

  env.int = (key, defaultValue) => (has(key) ? parseInt(raw(key), 10) : defaultValue);
  env.float = (key, defaultValue) => (has(key) ? parseFloat(raw(key)) : defaultValue);
  env.bool = (key, defaultValue) => (has(key) ? raw(key) === 'true' : defaultValue);
  env.json = (key, defaultValue) => {
    if (!has(key)) return defaultValue;
    try {
      return JSON.parse(raw(key));
    } catch (err) {
      throw new Error(`Invalid json environment variable ${key}: ${(err as Error).message}`);
    }
  };
  env.array = (key, defaultValue) => {
    if (!has(key)) return defaultValue;
    let value = raw(key);
    if (value.startsWith('[') && value.endsWith(']')) value = value.substring(1, value.length - 1);
    return value.split(',').map((v) => _.trim(_.trim(v, ' '), '"'));
  };
  env.date = (key, defaultValue) => (has(key) ? new Date(raw(key)) : defaultValue);
  env.oneOf = <T>(key: string, expectedValues: T[], defaultValue?: T): T | undefined => {
    if (!expectedValues) throw new Error('env.oneOf requires expectedValues');
    if (defaultValue && !expectedValues.includes(defaultValue)) {
      throw new Error('env.oneOf requires defaultValue to be included in expectedValues');
    }
    const value = env(key, defaultValue) as unknown as T;
    return expectedValues.includes(value) ? value : defaultValue;
  };
  return env;
}

/** The helper over process.env, as `require('@strapi/utils').env` gives it. */
export const env: EnvHelper = createEnv(process.env);
