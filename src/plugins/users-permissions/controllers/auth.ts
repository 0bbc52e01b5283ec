// /api/auth/*: login, register, password reset and change, email confirmation (UP:controllers/auth.js).
import crypto from 'node:crypto';
import _ from 'lodash';
import { ApplicationError, NotImplementedError, ValidationError } from '../../../errors';
import type { RequestContext } from '../../../rest/context';
import type { Entity } from '../../../query/types';
import { UP_ROLE_UID } from '../../../auth/abilities';
import { UP_USER_UID } from '../../../auth/jwt-strategy';
import { schemas, validateBody } from '../validation';
import { body, sanitizeUser, stateUser, type ControllerDeps } from './context';
import type { ProvidersService } from '../providers/connect-user';
import type { GrantFlow } from '../providers/grant-flow';

/** never writable through register, whatever `register.allowedFields` says */
const NEVER_ON_REGISTER = ['confirmed', 'blocked', 'confirmationToken', 'resetPasswordToken', 'provider', 'id', 'role',
  'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'publishedAt', 'strapi_reviewWorkflows_stage'];

/** a bcrypt hash (cost 10) of a random value nobody knows */
const DUMMY_HASH = '$2a$10$CwTycUXWue0Thq9StjUM0uJ8.Gg/NzSlTHzS4Lx4XwTfY3yFHqJSe';

export interface AuthControllerExtras {
  serverUrl(): string;
  adminUrl(): string;
  /** v4's `providers` service: the user of a provider's access token */
  providers: ProvidersService;
  /** /api/connect/:provider and its callback (providers/grant-flow.ts) */
  grantFlow: GrantFlow;
}

export function createAuthController(d: ControllerDeps, x: AuthControllerExtras) {
  const { services, settings } = d;
  const users = () => d.query(UP_USER_UID);

  function registerKeys(): string[] {
    const configured = d.registerAllowedFields();
    const attrs = d.userType.attributes;
    const extra = Array.isArray(configured)
      ? configured.filter((k): k is string => typeof k === 'string')
      : Object.keys(attrs).filter((k) => attrs[k].writable && !attrs[k].private);
    return [...new Set(['username', 'password', 'email', ...extra])].filter((k) => !NEVER_ON_REGISTER.includes(k));
  }

  /** v4: every failure of a provider sign-in answers 400 with its message (an unsupported provider: 501) */
  async function providerCallback(ctx: RequestContext, provider: string) {
    try {
      const user = await x.providers.connect(provider, ctx.query);
      if (user.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
      return { jwt: d.issueFor(user), user: sanitizeUser(d, user, ctx) };
    } catch (err) {
      if (err instanceof NotImplementedError) throw err;
      throw new ApplicationError((err as Error)?.message);
    }
  }

  return {
    async callback(ctx: RequestContext) {
      const provider = ctx.params.provider || 'local';
      const grant = await settings.grant();
      if (!_.get(grant, [provider === 'local' ? 'email' : provider, 'enabled'])) throw new ApplicationError('This provider is disabled');
      if (provider !== 'local') return providerCallback(ctx, provider);
      const params = validateBody<{ identifier: string; password: string }>(schemas.callback, ctx.request.body);
      const user = await users().findOne({
        where: { provider, $or: [{ email: params.identifier.toLowerCase() }, { username: params.identifier }] },
      });
      // an unknown identifier costs a bcrypt comparison too, so response times do not tell which users exist
      const valid = await services.user.validatePassword(params.password, user?.password || DUMMY_HASH);
      if (!user || !user.password || !valid) throw new ValidationError('Invalid identifier or password');
      const advanced = await settings.advanced();
      if (advanced.email_confirmation && user.confirmed !== true) throw new ApplicationError('Your account email is not confirmed');
      if (user.blocked === true) throw new ApplicationError('Your account has been blocked by an administrator');
      return { jwt: d.issueFor(user), user: sanitizeUser(d, user, ctx) };
    },

    connect: (ctx: RequestContext) => x.grantFlow.connect(ctx),

    async register(ctx: RequestContext) {
      const advanced = await settings.advanced();
      if (!advanced.allow_register) throw new ApplicationError('Register action is currently disabled');
      const params: Record<string, unknown> = { ..._.pick(body(ctx), registerKeys()), provider: 'local' };
      validateBody(schemas.register, params);
      const role = await d.query(UP_ROLE_UID).findOne({ where: { type: advanced.default_role } });
      if (!role) throw new ApplicationError('Impossible to find the default role');
      const email = String(params.email);
      const username = String(params.username);
      const identifierFilter = { $or: [{ email: email.toLowerCase() }, { username: email.toLowerCase() }, { username }, { email: username }] };
      if ((await users().count({ where: { ...identifierFilter, provider: 'local' } })) > 0) throw new ApplicationError('Email or Username are already taken');
      if (advanced.unique_email && (await users().count({ where: identifierFilter })) > 0) throw new ApplicationError('Email or Username are already taken');
      const user = await services.user.add({ ...params, role: role.id, email: email.toLowerCase(), username, confirmed: !advanced.email_confirmation });
      const sanitized = sanitizeUser(d, user, ctx);
      if (advanced.email_confirmation) {
        try {
          await services.user.sendConfirmationEmail(user);
        } catch (err) {
          throw new ApplicationError((err as Error).message);
        }
        return { user: sanitized };
      }
      return { jwt: d.issueFor(user), user: sanitized };
    },

    async forgotPassword(ctx: RequestContext) {
      const { email } = validateBody<{ email: string }>(schemas.forgotPassword, ctx.request.body);
      const [emailSettings, advanced] = await Promise.all([settings.email(), settings.advanced()]);
      const user = await users().findOne({ where: { email: email.toLowerCase() } });
      if (!user || user.blocked) return { ok: true };
      const resetPasswordToken = crypto.randomBytes(64).toString('hex');
      const opts = emailSettings.reset_password?.options ?? { from: {}, object: '', message: '' };
      const userInfo = sanitizeUser(d, user, ctx);
      const text = services['users-permissions'].template(opts.message, {
        URL: advanced.email_reset_password, SERVER_URL: x.serverUrl(), ADMIN_URL: x.adminUrl(), USER: userInfo, TOKEN: resetPasswordToken,
      });
      const subject = services['users-permissions'].template(opts.object, { USER: userInfo });
      // stored before sending, so an administrator can build the link if the email fails (v4)
      await services.user.edit(user.id, { resetPasswordToken });
      try {
        await d.email()?.send({
          to: user.email as string,
          from: opts.from.email || opts.from.name ? `${opts.from.name} <${opts.from.email}>` : undefined,
          replyTo: opts.response_email, subject, text, html: text,
        });
      } catch (err) {
        // v4 answers 500 here; the same {ok:true} as for an unknown address tells nobody whether it exists
        d.log.error({ err }, 'could not send the reset-password email');
      }
      return { ok: true };
    },

    async resetPassword(ctx: RequestContext) {
      const { password, passwordConfirmation, code } = validateBody<{ password: string; passwordConfirmation: string; code: string }>(schemas.resetPassword, ctx.request.body);
      if (password !== passwordConfirmation) throw new ValidationError('Passwords do not match');
      const user = await users().findOne({ where: { resetPasswordToken: code } });
      if (!user) throw new ValidationError('Incorrect code provided');
      const updated = await services.user.edit(user.id, { resetPasswordToken: null, password });
      return { jwt: d.issueFor(updated ?? user), user: sanitizeUser(d, user, ctx) };
    },

    async changePassword(ctx: RequestContext) {
      const current = stateUser(ctx);
      if (!current) throw new ApplicationError('You must be authenticated to reset your password');
      const { currentPassword, password } = validateBody<{ currentPassword: string; password: string }>(schemas.changePassword, ctx.request.body);
      const user = await services.user.fetch(current.id);
      if (!user) throw new ApplicationError('You must be authenticated to reset your password');
      if (!(await services.user.validatePassword(currentPassword, user.password))) throw new ValidationError('The provided current password is invalid');
      if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
      const updated = await services.user.edit(user.id, { password });
      return { jwt: d.issueFor(updated ?? user), user: sanitizeUser(d, user, ctx) };
    },

    /** `returnUser` (v4's third argument, set by GraphQL's emailConfirmation): a JWT and the user instead of the redirect */
    async emailConfirmation(ctx: RequestContext, _next?: unknown, returnUser = false) {
      const { confirmation } = validateBody<{ confirmation: string }>(schemas.emailConfirmation, ctx.query);
      const [user] = await services.user.fetchAll({ filters: { confirmationToken: confirmation } });
      if (!user) throw new ValidationError('Invalid token');
      const confirmed = await services.user.edit(user.id, { confirmed: true, confirmationToken: null });
      if (returnUser) return { jwt: d.issueFor(confirmed ?? user), user: sanitizeUser(d, confirmed ?? user, ctx) };
      const advanced = await settings.advanced();
      const to = advanced.email_confirmation_redirection || '/';
      ctx.status = 302;
      ctx.set('location', to);
      ctx.set('content-type', 'text/plain; charset=utf-8');
      return `Redirecting to ${to}.`;
    },

    async sendEmailConfirmation(ctx: RequestContext) {
      const { email } = validateBody<{ email: string }>(schemas.sendEmailConfirmation, ctx.request.body);
      const user = await users().findOne({ where: { email: email.toLowerCase() } });
      if (!user) return { email, sent: true };
      if (user.confirmed) throw new ApplicationError('Already confirmed');
      if (user.blocked) throw new ApplicationError('User blocked');
      await services.user.sendConfirmationEmail(user as Entity);
      return { email: user.email, sent: true };
    },
  };
}
