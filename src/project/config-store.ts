// `strapi.config`: one tree of configuration read with dotted paths, as v4's config provider does.
import _ from 'lodash';

/** One entry of config/plugins.js: `{ enabled?, resolve?, config? }`. */
export interface PluginEntry {
  enabled?: boolean;
  resolve?: string;
  config?: Record<string, unknown>;
  [key: string]: unknown;
}

/** v5-style `plugin::name.key` is accepted too and means v4's `plugin.name.key`. */
function normalize(path: string): string {
  return path.startsWith('plugin::') ? `plugin.${path.slice('plugin::'.length)}` : path;
}

export class ConfigStore {
  constructor(
    private readonly data: Record<string, unknown> = {},
    /** config/plugins.js (+ env override) as written, incl. disabled entries; not part of the tree (as in v4) */
    readonly plugins: Record<string, PluginEntry> = {},
  ) {}

  /** `get('server.port')`, `get('plugin.users-permissions.jwtSecret')`, `get('api.rest', {})` */
  get<T = unknown>(path: string, defaultValue?: T): T {
    return _.get(this.data, normalize(path), defaultValue) as T;
  }

  set(path: string, value: unknown): this {
    _.set(this.data, normalize(path), value);
    return this;
  }

  has(path: string): boolean {
    return _.has(this.data, normalize(path));
  }

  /** The whole tree (live object: treat as read-only). */
  all(): Record<string, unknown> {
    return this.data;
  }
}
