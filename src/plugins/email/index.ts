// The email plugin (`strapi.plugin('email').service('email')`): v4's `send` and `sendTemplatedEmail`
// over the provider configured in config/plugins.js `email.config` (`provider`, `providerOptions`,
// `settings.defaultFrom` / `defaultReplyTo`). Default provider: the log (see providers.ts).
import _ from 'lodash';
import { ApplicationError } from '../../errors';
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import { resolveEmailProvider, type EmailOptions, type EmailProvider, type EmailSettings } from './providers';

export interface EmailService {
  send(options: EmailOptions): Promise<unknown>;
  sendTemplatedEmail(options: EmailOptions, template: { subject?: string; text?: string; html?: string }, data?: Record<string, unknown>): Promise<unknown>;
  getProviderSettings(): { provider: string; settings: EmailSettings };
}

/**
 * `<%= KEY %>` / `<%= USER.email %>` with the given data only: no code runs in a template (v4 refuses
 * evaluation patterns too); an unknown key is left as written.
 */
export function renderTemplate(layout: string, data: Record<string, unknown>): string {
  if (/<%[^=]([\s\S]*?)%>/m.test(layout) || /\${([^{}]*)}/m.test(layout)) throw new ApplicationError('Invalid email template');
  return layout.replace(/<%=\s*([\w.]+)\s*%>/g, (whole, key: string) => {
    if (!_.has(data, key)) return whole;
    const v = _.get(data, key);
    return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

export function createEmailPlugin(ctx: PluginContext): TesseraPlugin & { email: EmailService } {
  const providerName = ctx.config<string | undefined>('provider', undefined) ?? 'log';
  const settings = ctx.config<EmailSettings>('settings', {}) ?? {};
  let provider: EmailProvider | undefined;
  const get = () => {
    provider ??= resolveEmailProvider(providerName, ctx.project.dir, ctx.log).init(ctx.config<Record<string, unknown>>('providerOptions', {}) ?? {}, settings);
    return provider;
  };
  const email: EmailService = {
    send: (options) => get().send(options),
    sendTemplatedEmail(options, template, data = {}) {
      return get().send({ ...options, subject: template.subject === undefined ? undefined : renderTemplate(template.subject, data), text: template.text === undefined ? undefined : renderTemplate(template.text, data), html: template.html === undefined ? undefined : renderTemplate(template.html, data) });
    },
    getProviderSettings: () => ({ provider: providerName, settings }),
  };
  return {
    name: 'email',
    email,
    services: { email },
    providerInstance: get,
    // resolve at start-up so a missing provider package is a clear start-up error, not a failed request
    bootstrap: async () => { get(); },
  };
}
