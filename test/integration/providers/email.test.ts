// @strapi/provider-email-nodemailer 4.26.2 (resolved from the project, as v4 does) on Tessera against a loopback SMTP
// server that wants a login: project code sending through strapi.plugin('email').service('email'), v4's
// `POST /api/email` route, users-permissions' forgot-password mail, and an SMTP server that refuses connections.
// Real Strapi 4.26.2 running the same project against the same kind of server sent the same messages (a text-only
// or html-only message goes out with both parts; From and Reply-To from `settings` unless the message has its own)
// and answered the same statuses, except forgot-password with SMTP refused (v4: 500; Tessera: `{ ok: true }`,
// docs/compatibility.md).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodemailerProvider, resolveEmailProvider, type EmailProviderModule } from '../../../src/plugins/email/providers';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';
import { decodeQuotedPrintable } from '../../helpers/smtp-server';
import { startProvidersApp, type ProvidersApp } from './app';
import { closedPort, startAuthSmtpServer, type AuthSmtpServer } from './servers';

const USER = 'mailer';
const PASS = 'mailer-secret';
const INTERNAL = { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } };

async function postJson(app: ProvidersApp, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(app.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** a header of a raw message (folded lines joined) */
const header = (data: string, name: string) => new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(data.split(/\r?\n\r?\n/)[0])?.[1].replace(/\r?\n[ \t]+/g, ' ');
/** the decoded bodies of a multipart/alternative message, by content type */
function parts(data: string): Record<string, string> {
  const boundary = /boundary="([^"]+)"/.exec(data)![1];
  const out: Record<string, string> = {};
  for (const part of data.split(`--${boundary}`).slice(1, -1)) {
    const [head, ...body] = part.trim().split(/\r?\n\r?\n/);
    out[/Content-Type: ([\w/]+)/i.exec(head)![1]] = decodeQuotedPrintable(body.join('\n\n')).trim();
  }
  return out;
}

describe('nodemailer through the project\'s provider package', () => {
  let smtp: AuthSmtpServer;
  let t: ProvidersApp;
  beforeAll(async () => {
    smtp = await startAuthSmtpServer(USER, PASS);
    t = await startProvidersApp({ SMTP_PORT: String(smtp.port), SMTP_USERNAME: USER, SMTP_PASSWORD: PASS });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  it('sends from project code with the configured defaults and login; a text-only message gets an html part too', async () => {
    const res = await postJson(t, '/api/notify', { to: 'reader@example.test', subject: 'Hello', text: 'plain body' });
    expect(res).toEqual({ status: 200, body: { sent: true, accepted: ['reader@example.test'], rejected: [] } });
    const mail = await smtp.next();
    expect(mail).toMatchObject({ user: USER, from: 'no-reply@providers.test', to: ['reader@example.test'] });
    expect(header(mail.data, 'From')).toBe('Providers App <no-reply@providers.test>');
    expect(header(mail.data, 'Reply-To')).toBe('support@providers.test');
    expect(header(mail.data, 'Subject')).toBe('Hello');
    expect(parts(mail.data)).toEqual({ 'text/plain': 'plain body', 'text/html': 'plain body' });
  });

  it('keeps the message\'s own from; an html-only message gets a text part', async () => {
    await postJson(t, '/api/notify', { to: 'reader@example.test', subject: 'Html', html: '<p>html body</p>', from: 'Other <other@example.test>' });
    const mail = await smtp.next();
    expect(mail.from).toBe('other@example.test');
    expect(header(mail.data, 'From')).toBe('Other <other@example.test>');
    expect(parts(mail.data)).toEqual({ 'text/plain': '<p>html body</p>', 'text/html': '<p>html body</p>' });
  });

  it('serves v4\'s POST /api/email: 403 without the permission, {} with it', async () => {
    expect(await postJson(t, '/api/email', { to: 'x@example.test', subject: 's', text: 't' })).toMatchObject({ status: 403 });
    expect(smtp.messages.filter((m) => m.to.includes('x@example.test'))).toEqual([]);
    const res = await postJson(t, '/api/email', { to: 'admin@example.test', subject: 'Via the route', text: 'route body' }, t.token);
    expect(res).toEqual({ status: 200, body: {} });
    const mail = await smtp.next();
    expect(mail.to).toEqual(['admin@example.test']);
    expect(header(mail.data, 'Subject')).toBe('Via the route');
  });

  it('sends no server file and fetches no URL a client names as an attachment of POST /api/email', async () => {
    const secret = `${process.cwd()}/package.json`;
    const attachments = [{ filename: 'a.txt', path: secret }, { filename: 'b.txt', href: 'http://127.0.0.1:9/never' }, { filename: 'c.txt', content: 'inline ok' }];
    const res = await postJson(t, '/api/email', { to: 'admin@example.test', subject: 'Attachments', text: 'x', attachments }, t.token);
    expect(res).toEqual({ status: 200, body: {} });
    const mail = await smtp.next();
    expect(mail.data).toContain(Buffer.from('inline ok').toString('base64'));
    // the file, had it been attached, starts its base64 lines with these characters
    expect(mail.data).not.toContain(fs.readFileSync(secret).toString('base64').slice(0, 40));
  });

  it('sends the users-permissions reset-password mail through it, Reply-To from the settings', async () => {
    const email = 'forgetful@example.test';
    expect((await postJson(t, '/api/auth/local/register', { username: 'forgetful', email, password: 'Passw0rd!x' })).status).toBe(200);
    expect(await postJson(t, '/api/auth/forgot-password', { email })).toEqual({ status: 200, body: { ok: true } });
    const mail = await smtp.next();
    expect(mail.to).toEqual([email]);
    expect(header(mail.data, 'From')).toBe('Administration Panel <no-reply@strapi.io>'); // the users-permissions email template's sender
    expect(header(mail.data, 'Reply-To')).toBe('support@providers.test'); // the template's response_email is empty
    expect(header(mail.data, 'Subject')).toBe('Reset password');
    const [{ code }] = await t.rows<{ code: string }>('SELECT reset_password_token AS code FROM up_users WHERE email = ?', email);
    const body = parts(mail.data);
    expect(body['text/html']).toContain(`?code=${code}`);
    expect(body['text/plain']).toBe(body['text/html']);
  });

  it('sendTemplatedEmail: v4\'s check that the template names subject, text and html; the data rendered in', async () => {
    const service = (t.app.strapi as any).plugin('email').service('email'); // eslint-disable-line @typescript-eslint/no-explicit-any
    await expect(service.sendTemplatedEmail({ to: 'reader@example.test' }, { subject: 'x' }, {})).rejects.toThrow('Following attributes are missing from your email template : text, html');
    await service.sendTemplatedEmail({ to: 'reader@example.test', text: 'kept' }, { subject: 'Hi <%= user.name %>', text: '', html: '<b><%= user.name %></b>' }, { user: { name: 'Ada' } });
    const mail = await smtp.next();
    expect(header(mail.data, 'Subject')).toBe('Hi Ada');
    expect(parts(mail.data)).toEqual({ 'text/plain': 'kept', 'text/html': '<b>Ada</b>' }); // an empty template part keeps the option's
  });

  it('answers with the provider settings v4 gives project code', () => {
    const service = (t.app.strapi as any).plugin('email').service('email'); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(service.getProviderSettings()).toMatchObject({ provider: 'nodemailer', providerOptions: { host: '127.0.0.1', port: smtp.port }, settings: { defaultFrom: 'Providers App <no-reply@providers.test>' } });
  });
});

describe('an SMTP server that refuses connections', () => {
  let t: ProvidersApp;
  beforeAll(async () => {
    t = await startProvidersApp({ SMTP_PORT: String(await closedPort()) });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers project code\'s send with v4\'s 500 and logs the connection error', async () => {
    expect(await postJson(t, '/api/notify', { to: 'reader@example.test', subject: 'Hello', text: 'plain' })).toEqual({ status: 500, body: INTERNAL });
    expect(t.log.some((l) => l.level >= 50 && /ECONNREFUSED/.test(JSON.stringify(l)))).toBe(true);
  });

  it('answers POST /api/email with v4\'s 500, logging "Couldn\'t send email: ..."', async () => {
    expect(await postJson(t, '/api/email', { to: 'x@example.test', subject: 's', text: 't' }, t.token)).toEqual({ status: 500, body: INTERNAL });
    expect(t.log.some((l) => l.level >= 50 && /Couldn't send email: connect ECONNREFUSED/.test(JSON.stringify(l)))).toBe(true);
  });

  it('keeps forgot-password\'s answer { ok: true } (v4: 500) and logs the failure', async () => {
    const email = 'offline@example.test';
    expect((await postJson(t, '/api/auth/local/register', { username: 'offline', email, password: 'Passw0rd!x' })).status).toBe(200);
    expect(await postJson(t, '/api/auth/forgot-password', { email })).toEqual({ status: 200, body: { ok: true } });
    expect(t.log.some((l) => l.msg === 'could not send the reset-password email')).toBe(true);
  });
});

describe('the provider module', () => {
  const log = { info: () => undefined };
  const installed = createRequire(path.join(PLUGIN_PROJECTS_DIR, 'package.json'))('@strapi/provider-email-nodemailer') as EmailProviderModule;

  it('is the project\'s @strapi/provider-email-nodemailer when installed, else Tessera\'s copy of it', () => {
    expect(resolveEmailProvider('nodemailer', path.join(PLUGIN_PROJECTS_DIR, 'providers-app'), log)).toBe(installed);
    expect(resolveEmailProvider('nodemailer', path.parse(PLUGIN_PROJECTS_DIR).root, log)).toBe(nodemailerProvider);
  });

  it('the copy sends what the package sends', async () => {
    const smtp = await startAuthSmtpServer(USER, PASS);
    try {
      const options = { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, auth: { user: USER, pass: PASS } };
      const settings = { defaultFrom: 'Default <default@example.test>', defaultReplyTo: 'reply@example.test' };
      const messages = [
        { to: 'a@example.test', subject: 'text only', text: 'just text', replyTo: '' },
        { to: 'b@example.test', cc: 'c@example.test', subject: 'html only', html: '<i>html</i>', from: 'Own <own@example.test>', headers: { 'X-Dropped': 'yes' } },
      ];
      const sent = async (provider: EmailProviderModule) => {
        const p = provider.init(options, settings);
        const out = [];
        for (const m of messages) {
          await p.send(m);
          const mail = await smtp.next();
          out.push({ from: mail.from, to: mail.to, headers: ['From', 'To', 'Cc', 'Reply-To', 'Subject', 'X-Dropped'].map((h) => header(mail.data, h)), parts: parts(mail.data) });
        }
        return out;
      };
      const fromPackage = await sent(installed);
      expect(fromPackage[1].headers).toEqual(['Own <own@example.test>', 'b@example.test', 'c@example.test', 'reply@example.test', 'html only', undefined]);
      expect(await sent(nodemailerProvider)).toEqual(fromPackage);
    } finally {
      await smtp.close();
    }
  });
});
