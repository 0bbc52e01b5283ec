// Email providers with v4's provider interface (`init(providerOptions, settings) -> { send(options) }`):
// `log` (Tessera's default: the message goes to the log, nothing leaves the machine), and any v4 provider
// package installed in the project, found as v4 finds it (`@strapi/provider-email-<name>`, then the name
// itself; also `strapi-provider-email-<name>`, or a path). `nodemailer` works without the package too: a
// built-in copy of @strapi/provider-email-nodemailer 4.26.2 (the same fields, defaults and text/html fallbacks).
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

/** the options @strapi/provider-email-nodemailer hands to nodemailer; any other key is dropped */
const NODEMAILER_FIELDS = ['from', 'replyTo', 'to', 'cc', 'bcc', 'subject', 'text', 'html', 'attachments'] as const;

/** @strapi/provider-email-nodemailer 4.26.2, for projects that name it without installing it */
export const nodemailerProvider: EmailProviderModule = {
  init(providerOptions, settings) {
    const transporter = loadNodemailer().createTransport(providerOptions as Parameters<typeof Nodemailer.createTransport>[0]);
    return {
      send(o) {
        const message: Record<string, unknown> = {};
        for (const k of NODEMAILER_FIELDS) if (k in o) message[k] = o[k];
        // `||` as the package: an empty value takes the default too, and a message with only text or only
        // html goes out with both parts
        message.from = o.from || settings.defaultFrom;
        message.replyTo = o.replyTo || settings.defaultReplyTo;
        message.text = o.text || o.html;
        message.html = o.html || o.text;
        return transporter.sendMail(message);
      },
    };
  },
};

const NODEMAILER_NAMES = new Set(['nodemailer', '@strapi/provider-email-nodemailer', 'strapi-provider-email-nodemailer']);

/** The provider module named in config/plugins.js `email.config.provider`, resolved from the project folder. */
export function resolveEmailProvider(name: string | undefined, projectDir: string, log: { info(obj: unknown, msg?: string): void }): EmailProviderModule {
  if (!name || name === 'log') return logProvider(log);
  const req = createRequire(path.join(projectDir, 'package.json'));
  const short = name.toLowerCase(); // v4 lowercases the name
  const candidates = name.startsWith('.') || path.isAbsolute(name)
    ? [path.resolve(projectDir, name)]
    : [`@strapi/provider-email-${short}`, `strapi-provider-email-${short}`, name];
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
  if (NODEMAILER_NAMES.has(short)) return nodemailerProvider;
  throw new Error(`email provider "${name}" is not installed in the project (looked for ${candidates.join(', ')}); use "nodemailer" or "log", or install the provider`);
}
