// The users-permissions plugin's first-start setup, as @strapi/plugin-users-permissions 4.26.2 does it
// (server/bootstrap/index.js and services/users-permissions.js `initialize`/`syncPermissions`):
// the Authenticated and Public roles when there is no role at all, v4's default permissions when there
// is no permission at all, and the `grant`, `email` and `advanced` plugin store settings when missing.
import type { QueryFn } from '../query/query-engine';
import type { CoreStore } from './core-store';
import { UP_PERMISSION_UID, UP_ROLE_UID } from './permissions';

/** v4 `DEFAULT_PERMISSIONS`, in its order. */
export const DEFAULT_PERMISSIONS: ReadonlyArray<{ action: string; roleType: 'public' | 'authenticated' }> = [
  { action: 'plugin::users-permissions.auth.callback', roleType: 'public' },
  { action: 'plugin::users-permissions.auth.connect', roleType: 'public' },
  { action: 'plugin::users-permissions.auth.forgotPassword', roleType: 'public' },
  { action: 'plugin::users-permissions.auth.resetPassword', roleType: 'public' },
  { action: 'plugin::users-permissions.auth.register', roleType: 'public' },
  { action: 'plugin::users-permissions.auth.emailConfirmation', roleType: 'public' },
  { action: 'plugin::users-permissions.auth.sendEmailConfirmation', roleType: 'public' },
  { action: 'plugin::users-permissions.user.me', roleType: 'authenticated' },
  { action: 'plugin::users-permissions.auth.changePassword', roleType: 'authenticated' },
];

/** Created in this order (Authenticated gets id 1, Public id 2 on an empty database). */
export const DEFAULT_ROLES = [
  { name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated' },
  { name: 'Public', description: 'Default role given to unauthenticated user.', type: 'public' },
] as const;

export const DEFAULT_ADVANCED_SETTINGS = {
  unique_email: true,
  allow_register: true,
  email_confirmation: false,
  email_reset_password: null,
  email_confirmation_redirection: null,
  default_role: 'authenticated',
};

const TEMPLATE_FROM = { name: 'Administration Panel', email: 'no-reply@strapi.io' };

export const DEFAULT_EMAIL_SETTINGS = {
  reset_password: {
    display: 'Email.template.reset_password',
    icon: 'sync',
    options: {
      from: { ...TEMPLATE_FROM },
      response_email: '',
      object: 'Reset password',
      message: '<p>We heard that you lost your password. Sorry about that!</p>\n\n<p>But don’t worry! You can use the following link to reset your password:</p>\n<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>Thanks.</p>',
    },
  },
  email_confirmation: {
    display: 'Email.template.email_confirmation',
    icon: 'check-square',
    options: {
      from: { ...TEMPLATE_FROM },
      response_email: '',
      object: 'Account confirmation',
      message: '<p>Thank you for registering!</p>\n\n<p>You have to confirm your email address. Please click on the link below.</p>\n\n<p><%= URL %>?confirmation=<%= CODE %></p>\n\n<p>Thanks.</p>',
    },
  },
};

const oauth = (icon: string, extra: Record<string, unknown>) => ({ icon, enabled: false, key: '', secret: '', ...extra });

/** The grant settings v4 4.26.2 writes for its built-in providers (`icon`, `enabled`, then `grantConfig`). */
export function defaultGrantSettings(): Record<string, Record<string, unknown>> {
  return {
    email: { icon: 'envelope', enabled: true },
    discord: oauth('discord', { callbackUrl: 'api/auth/discord/callback', scope: ['identify', 'email'] }),
    facebook: oauth('facebook-square', { callbackUrl: 'api/auth/facebook/callback', scope: ['email'] }),
    google: oauth('google', { callbackUrl: 'api/auth/google/callback', scope: ['email'] }),
    github: oauth('github', { callbackUrl: 'api/auth/github/callback', scope: ['user', 'user:email'] }),
    microsoft: oauth('windows', { callbackUrl: 'api/auth/microsoft/callback', scope: ['user.read'] }),
    twitter: oauth('twitter', { callbackUrl: 'api/auth/twitter/callback' }),
    instagram: oauth('instagram', { callbackUrl: 'api/auth/instagram/callback', scope: ['user_profile'] }),
    vk: oauth('vk', { callbackUrl: 'api/auth/vk/callback', scope: ['email'] }),
    twitch: oauth('twitch', { callbackUrl: 'api/auth/twitch/callback', scope: ['user:read:email'] }),
    linkedin: oauth('linkedin', { callbackUrl: 'api/auth/linkedin/callback', scope: ['r_liteprofile', 'r_emailaddress'] }),
    cognito: oauth('aws', { subdomain: 'my.subdomain.com', callback: 'api/auth/cognito/callback', scope: ['email', 'openid', 'profile'] }),
    reddit: oauth('reddit', { callback: 'api/auth/reddit/callback', scope: ['identity'] }),
    auth0: oauth('', { subdomain: 'my-tenant.eu', callback: 'api/auth/auth0/callback', scope: ['openid', 'email', 'profile'] }),
    cas: oauth('book', { callback: 'api/auth/cas/callback', scope: ['openid email'], subdomain: 'my.subdomain.com/cas' }),
    patreon: oauth('', { callback: 'api/auth/patreon/callback', scope: ['identity', 'identity[email]'] }),
    keycloak: oauth('', { subdomain: 'myKeycloakProvider.com/realms/myrealm', callback: 'api/auth/keycloak/callback', scope: ['openid', 'email', 'profile'] }),
  };
}

export interface EnsureUsersPermissionsDeps {
  query: QueryFn;
  /** the core store; without it the plugin store settings are left alone */
  store?: CoreStore;
}

export interface EnsureUsersPermissionsResult {
  createdRoles: string[];
  createdPermissions: number;
  createdSettings: string[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Idempotent: a second run changes nothing. */
export async function ensureUsersPermissions(deps: EnsureUsersPermissionsDeps): Promise<EnsureUsersPermissionsResult> {
  const { query, store } = deps;
  const result: EnsureUsersPermissionsResult = { createdRoles: [], createdPermissions: 0, createdSettings: [] };

  if (store) {
    const pluginStore = store({ type: 'plugin', name: 'users-permissions' });
    // grant: v4 rewrites it whenever it differs from the provider registry, merging the stored values in
    // and dropping providers it does not know. We only add missing built-in providers and never drop one
    // (a project may have registered its own).
    const prevGrant = await pluginStore.get({ key: 'grant' });
    const defaults = defaultGrantSettings();
    if (!isPlainObject(prevGrant)) {
      await pluginStore.set({ key: 'grant', value: defaults });
      result.createdSettings.push('grant');
    } else {
      const missing = Object.keys(defaults).filter((k) => !(k in prevGrant));
      if (missing.length) {
        const merged: Record<string, unknown> = { ...prevGrant };
        for (const k of missing) merged[k] = defaults[k];
        await pluginStore.set({ key: 'grant', value: merged });
        result.createdSettings.push('grant');
      }
    }
    if (!(await pluginStore.get({ key: 'email' }))) {
      await pluginStore.set({ key: 'email', value: DEFAULT_EMAIL_SETTINGS });
      result.createdSettings.push('email');
    }
    if (!(await pluginStore.get({ key: 'advanced' }))) {
      await pluginStore.set({ key: 'advanced', value: DEFAULT_ADVANCED_SETTINGS });
      result.createdSettings.push('advanced');
    }
  }

  // v4 `initialize`: both roles, only when there is no role at all
  if ((await query(UP_ROLE_UID).count()) === 0) {
    for (const role of DEFAULT_ROLES) {
      await query(UP_ROLE_UID).create({ data: { ...role } });
      result.createdRoles.push(role.type);
    }
  }

  // v4 `syncPermissions`: the defaults, only when there is no permission at all
  if ((await query(UP_PERMISSION_UID).count()) === 0) {
    const roles = await query(UP_ROLE_UID).findMany({ select: ['id', 'type'], orderBy: 'id' });
    for (const role of roles) {
      for (const { action } of DEFAULT_PERMISSIONS.filter((p) => p.roleType === role.type)) {
        await query(UP_PERMISSION_UID).create({ data: { action, role: role.id } });
        result.createdPermissions++;
      }
    }
  }
  return result;
}
