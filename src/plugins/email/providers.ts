// Email providers with v4's provider interface (`init(providerOptions, settings) -> { send(options) }`):
// `log` (Tessera's default: the message goes to the log, nothing leaves the machine), `nodemailer`
// (SMTP and every nodemailer transport, as @strapi/provider-email-nodemailer), and any v4 provider package
// installed in the project (`@strapi/provider-email-<name>`, `strapi-provider-email-<name>`, or a path).
import { createRequire } from 'node:module';
import path from 'node:path';
import type Nodemailer from 'nodemailer';
import { lazyModule } from '../../lazy-module';

/** nodemailer only when the project's email provider is nodemailer (~25 ms and ~1 MB otherwise spent at every start) */
const loadNodemailer = lazyModule('nodemailer', 'the nodemailer email provider', () => require('nodemailer') as typeof Nodemailer);

export interface EmailOptions {
  to?: string;
  from?: string;
  cc?: string;
  bcc?: string;
  replyTo?: string;
  subject?: string;
  text?: string;
  html?: string;
  [key: string]: unknown;
}

export interface EmailSettings {
  defaultFrom?: string;
  defaultReplyTo?: string;
  [key: string]: unknown;
}

export interface EmailProvider {
  send(options: EmailOptions): Promise<unknown>;
}

export interface EmailProviderModule {
  init(providerOptions: Record<string, unknown>, settings: EmailSettings): EmailProvider;
}

export function logProvider(log: { info(obj: unknown, msg?: string): void }): EmailProviderModule {
  return {
    init: (_options, settings) => ({
      async send(o) {
        log.info({ email: { to: o.to, from: o.from ?? settings.defaultFrom, replyTo: o.replyTo ?? settings.defaultReplyTo, subject: o.subject, text: o.text } },
          `email (log provider, not sent) to ${String(o.to)}: ${String(o.subject ?? '')}`);
      },
    }),
  };
}

const NODEMAILER_KEYS = ['from', 'to', 'cc', 'bcc', 'replyTo', 'subject', 'text', 'html', 'attachments', 'headers', 'attachDataUrls', 'icalEvent', 'list', 'priority', 'inReplyTo', 'references', 'envelope', 'messageId', 'date', 'encoding', 'raw', 'textEncoding', 'amp', 'alternatives', 'dkim'];

export const nodemailerProvider: EmailProviderModule = {
  init(providerOptions, settings) {
    const transporter = loadNodemailer().createTransport(providerOptions as Parameters<typeof Nodemailer.createTransport>[0]);
    return {
      send(o) {
        const message: Record<string, unknown> = {};
        for (const k of NODEMAILER_KEYS) if (o[k] !== undefined) message[k] = o[k];
        message.from ??= settings.defaultFrom;
        message.replyTo ??= settings.defaultReplyTo;
        return transporter.sendMail(message);
      },
    };
  },
};

/** The provider module named in config/plugins.js `email.config.provider`. */
export function resolveEmailProvider(name: string | undefined, projectDir: string, log: { info(obj: unknown, msg?: string): void }): EmailProviderModule {
  if (!name || name === 'log') return logProvider(log);
  if (name === 'nodemailer' || name === '@strapi/provider-email-nodemailer' || name === 'strapi-provider-email-nodemailer') return nodemailerProvider;
  const req = createRequire(path.join(projectDir, 'package.json'));
  const candidates = name.startsWith('.') || path.isAbsolute(name) ? [path.resolve(projectDir, name)] : [`@strapi/provider-email-${name}`, `strapi-provider-email-${name}`, name];
  for (const c of candidates) {
    let mod: unknown;
    try {
      mod = req(c);
    } catch (err) {
      if ((err as { code?: string }).code === 'MODULE_NOT_FOUND' && String((err as Error).message).includes(c)) continue;
      throw err;
    }
    const m = ((mod as { default?: unknown }).default ?? mod) as Partial<EmailProviderModule>;
    if (typeof m.init === 'function') return m as EmailProviderModule;
    throw new Error(`email provider "${name}" (${c}) does not export init()`);
  }
  throw new Error(`email provider "${name}" is not installed in the project (looked for ${candidates.join(', ')}); use "nodemailer" or "log", or install the provider`);
}
