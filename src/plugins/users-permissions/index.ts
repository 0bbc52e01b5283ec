// The users-permissions plugin: users, roles, JWT and the /api/auth, /api/users and
// /api/users-permissions routes. Its first-start setup and the Public role live in auth/ for now.
import type { PluginContext, TesseraPlugin } from '../../core/plugin';

export function createUsersPermissionsPlugin(_ctx: PluginContext): TesseraPlugin {
  return { name: 'users-permissions', services: {} };
}
