// v4's `providers` service (UP:services/providers.js): `connect(provider, query)` turns the access token the
// front end got into the user it belongs to (matched by email and provider, else created: confirmed, with the
// default role of the advanced settings), and `buildRedirectUri(provider)`. Its errors carry v4's messages; the
// auth controller answers them as 400 ApplicationError.
import _ from 'lodash';
import type { QueryFn } from '../../../query/query-engine';
import type { Entity } from '../../../query/types';
import { UP_ROLE_UID } from '../../../auth/abilities';
import { UP_USER_UID } from '../../../auth/jwt-strategy';
import type { Settings } from '../settings';
import type { ProvidersRegistry } from './registry';

export interface ProvidersServiceDeps {
  query: QueryFn;
  settings: Settings;
  registry: ProvidersRegistry;
  /** the server's absolute URL (config/server.js `url`, else built from host and port) */
  serverUrl(): string;
  apiPrefix: string;
}

const urlJoin = (...parts: string[]) => parts.map((p, i) => (i === 0 ? p.replace(/\/+$/, '') : p.replace(/^\/+|\/+$/g, ''))).filter(Boolean).join('/');

export function createProvidersService(d: ProvidersServiceDeps) {
  const users = () => d.query(UP_USER_UID);

  /** v4 takes the first of these the query has; a list (`access_token[]=`) is no token */
  const tokenOf = (query: Record<string, any>): string | undefined => {
    const t = query.access_token || query.code || query.oauth_token;
    return typeof t === 'string' ? t : undefined;
  };

  return {
    async connect(provider: string, query: Record<string, any>): Promise<Entity> {
      const accessToken = tokenOf(query);
      if (!accessToken) throw new Error('No access_token.');
      const profile = await d.registry.run({ provider, query, accessToken, providers: await d.settings.grant() });
      const email = _.toLower(profile.email as string);
      // the email is what an account is found by: none, no sign-in
      if (!email) throw new Error('Email was not available.');
      const found = await users().findMany({ where: { email } });
      const advanced = await d.settings.advanced();
      const user = _.find(found, { provider });
      if (_.isEmpty(user) && !advanced.allow_register) throw new Error('Register action is actually not available.');
      if (user && !_.isEmpty(user)) return user;
      // an account of another provider (or a local one) with this email
      if (found.length && advanced.unique_email) throw new Error('Email is already taken.');
      const role = await d.query(UP_ROLE_UID).findOne({ where: { type: advanced.default_role } });
      if (!role) throw new Error('Impossible to find the default role');
      return users().create({ data: { ...profile, email, provider, role: role.id, confirmed: true } });
    },
    buildRedirectUri: (provider = '') => urlJoin(d.serverUrl(), d.apiPrefix, 'connect', provider, 'callback'),
  };
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
