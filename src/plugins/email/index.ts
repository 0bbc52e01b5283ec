// The email plugin (`strapi.plugin('email').service('email')`): v4's `send`, `sendTemplatedEmail` and
// `getProviderSettings` over the provider configured in config/plugins.js `email.config` (`provider`,
// `providerOptions`, `settings.defaultFrom` / `defaultReplyTo`; default provider: the log, see providers.ts),
// and v4's content-API route `POST /api/email` (permission `plugin::email.email.send`), declared as v4 declares it.
import _ from 'lodash';
import { ApplicationError } from '../../errors';
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import type { RequestContext } from '../../rest/context';
import { resolveEmailProvider, type EmailOptions, type EmailProvider, type EmailSettings } from './providers';

export interface EmailConfig {
  provider: string;
  providerOptions: Record<string, unknown>;
  settings: EmailSettings;
}

export interface EmailService {
  send(options: EmailOptions): Promise<unknown>;
  sendTemplatedEmail(options: EmailOptions, template: { subject?: string; text?: string; html?: string }, data?: Record<string, unknown>): Promise<unknown>;
  /** v4: the plugin's whole config (`strapi.config.get('plugin.email')`) */
  getProviderSettings(): EmailConfig;
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

const TEMPLATE_ATTRIBUTES = ['subject', 'text', 'html'] as const;

/**
 * A message a client sends through `POST /api/email`: attachments may carry content only, not a `path` or `href`
 * (nodemailer would read a file of the server or fetch a URL for it: v4 passes them on).
 */
function fromClient(body: unknown): EmailOptions {
  const message = { ...((body ?? {}) as Record<string, unknown>) };
  if (Array.isArray(message.attachments)) {
    message.attachments = message.attachments.map((a) => {
      if (!a || typeof a !== 'object') return a;
      const { path: _path, href: _href, raw: _raw, ...rest } = a as Record<string, unknown>;
      return rest;
    });
  }
  return message as EmailOptions;
}

export function createEmailPlugin(ctx: PluginContext): TesseraPlugin & { email: EmailService } {
  const config: EmailConfig = {
    provider: ctx.config<string | undefined>('provider', undefined) ?? 'log',
    providerOptions: ctx.config<Record<string, unknown>>('providerOptions', {}) ?? {},
    settings: ctx.config<EmailSettings>('settings', {}) ?? {},
  };
  let provider: EmailProvider | undefined;
  const get = () => {
    provider ??= resolveEmailProvider(config.provider, ctx.project.dir, ctx.log).init(config.providerOptions, config.settings);
    return provider;
  };
  const email: EmailService = {
    send: async (options) => get().send(options),
    /** v4: every attribute of the template must be given; those with a value are rendered over the options */
    async sendTemplatedEmail(options, template, data = {}) {
      const missing = TEMPLATE_ATTRIBUTES.filter((a) => !Object.keys(template ?? {}).includes(a));
      if (missing.length) throw new Error(`Following attributes are missing from your email template : ${missing.join(', ')}`);
      const rendered: Partial<Record<(typeof TEMPLATE_ATTRIBUTES)[number], string>> = {};
      for (const a of TEMPLATE_ATTRIBUTES) if (template[a]) rendered[a] = renderTemplate(template[a]!, data);
      return get().send({ ...options, ...rendered });
    },
    getProviderSettings: () => config,
  };
  const controllers = {
    email: {
      /** v4: the body is the message; a provider error with statusCode 400 is the client's, any other a 500 */
      async send(rc: RequestContext) {
        try {
          await email.send(fromClient(rc.request.body));
        } catch (error) {
          if ((error as { statusCode?: unknown })?.statusCode === 400) throw new ApplicationError((error as Error).message);
          throw new Error(`Couldn't send email: ${(error as Error)?.message ?? String(error)}.`);
        }
        rc.send({});
      },
    },
  };
  return {
    name: 'email',
    email,
    services: { email },
    providerInstance: get,
    v4: {
      routes: {
        admin: { type: 'admin', routes: [] },
        'content-api': { type: 'content-api', routes: [{ method: 'POST', path: '/', handler: 'email.send' }] },
      },
      controllers,
    },
    // resolve at start-up so a missing provider package is a clear start-up error, not a failed request
    bootstrap: async () => { get(); },
  };
}
