// The plugin store settings of users-permissions (`strapi_core_store_settings`, keys `plugin_users-permissions_*`):
// `advanced` (allow_register, default_role, email_confirmation, unique_email, redirections), `email`
// (templates) and `grant` (providers), with v4's defaults when a key is missing. Read often (every JWT
// request needs `email_confirmation`), so kept for a few seconds; writes through the core store drop the copy.
import type { CoreStore } from '../../auth/core-store';
import { DEFAULT_ADVANCED_SETTINGS, DEFAULT_EMAIL_SETTINGS, defaultGrantSettings } from '../../auth/users-permissions-bootstrap';

export interface AdvancedSettings {
  unique_email: boolean;
  allow_register: boolean;
  email_confirmation: boolean;
  email_reset_password: string | null;
  email_confirmation_redirection: string | null;
  default_role: string;
  [key: string]: unknown;
}

export interface EmailTemplate {
  display?: string;
  icon?: string;
  options: { from: { name?: string; email?: string }; response_email?: string; object: string; message: string };
}

export type EmailSettings = { reset_password: EmailTemplate; email_confirmation: EmailTemplate } & Record<string, unknown>;

type Key = 'advanced' | 'email' | 'grant';

export function createSettings(store: CoreStore, opts: { ttlMs?: number; now?: () => number } = {}) {
  const scope = store({ type: 'plugin', name: 'users-permissions' });
  const ttl = opts.ttlMs ?? 5_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<Key, { at: number; value: Promise<unknown> }>();
  // a write through `strapi.store(...)` (project bootstraps do that) drops our copy at once
  store.subscribe((key) => {
    if (key.startsWith('plugin_users-permissions_')) cache.delete(key.slice('plugin_users-permissions_'.length) as Key);
  });

  function read<T>(key: Key, fallback: () => T): Promise<T> {
    const hit = cache.get(key);
    if (hit && now() - hit.at < ttl) return hit.value as Promise<T>;
    const value = scope.get({ key }).then((v) => (v && typeof v === 'object' ? (v as T) : fallback()));
    cache.set(key, { at: now(), value });
    value.catch(() => cache.delete(key));
    return value;
  }

  return {
    advanced: () => read<AdvancedSettings>('advanced', () => ({ ...DEFAULT_ADVANCED_SETTINGS })),
    email: () => read<EmailSettings>('email', () => structuredClone(DEFAULT_EMAIL_SETTINGS) as EmailSettings),
    grant: () => read<Record<string, Record<string, unknown>>>('grant', defaultGrantSettings),
    async set(key: Key, value: unknown): Promise<void> {
      await scope.set({ key, value });
      cache.delete(key);
    },
    clear: () => cache.clear(),
  };
}

export type Settings = ReturnType<typeof createSettings>;
