// v4's `providers-registry` service (`strapi.plugin('users-permissions').service('providers-registry')`):
// the sign-in providers by name, each `{ enabled, icon, grantConfig, authCallback }`. Projects add their own
// with `add(name, config)` (from `register`); `authCallback({ accessToken, query, providers, purest })` turns an
// access token into `{ username, email }`. `purest` is the project's own copy when it has one installed (v4
// passes its bundled one; Tessera's built-in providers do not use it).
import { createRequire } from 'node:module';
import path from 'node:path';
import { defaultGrantSettings } from '../../../auth/users-permissions-bootstrap';
import { PROFILES, type Profile, type ProfileArgs } from './profiles';

export interface RegistryProvider {
  enabled?: boolean;
  icon?: string;
  grantConfig?: Record<string, unknown>;
  /** absent on `email` (the local provider) */
  authCallback?(args: ProfileArgs & { purest?: unknown }): Promise<Profile> | Profile;
}

export function createProvidersRegistry(projectDir: string) {
  const providers: Record<string, RegistryProvider> = {};
  for (const [name, { icon, enabled, ...grantConfig }] of Object.entries(defaultGrantSettings())) {
    providers[name] = { enabled: enabled as boolean, icon: icon as string, grantConfig, authCallback: PROFILES[name] };
  }
  let purest: unknown;
  const projectPurest = () => {
    if (purest === undefined) {
      try {
        purest = createRequire(path.join(projectDir, 'package.json'))('purest');
      } catch {
        purest = null;
      }
    }
    return purest ?? undefined;
  };

  return {
    getAll: () => providers,
    get: (name: string): RegistryProvider | undefined => (Object.hasOwn(providers, name) ? providers[name] : undefined),
    add(name: string, config: RegistryProvider): void {
      providers[name] = config;
    },
    remove(name: string): void {
      delete providers[name];
    },
    async run({ provider, accessToken, query, providers: settings }: ProfileArgs & { provider: string }): Promise<Profile> {
      const p = Object.hasOwn(providers, provider) ? providers[provider] : undefined;
      if (!p) throw new Error('Unknown auth provider');
      // v4's message for a provider without one (`email`)
      if (typeof p.authCallback !== 'function') throw new TypeError('authProvider.authCallback is not a function');
      const args = { accessToken, query, providers: settings };
      // the built-in ones never need purest: do not look for it
      return p.authCallback(PROFILES[provider] === p.authCallback ? args : { ...args, purest: projectPurest() });
    },
  };
}

export type ProvidersRegistry = ReturnType<typeof createProvidersRegistry>;
