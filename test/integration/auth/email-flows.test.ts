// Email through the configured provider (nodemailer over SMTP to a local test server, as config/plugins.js
// `email` sets it up in v4): forgot/reset password end to end, and email confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, startSmtpServer, type SmtpServer } from '../../helpers/smtp-server';
import { startAuthApp, type AuthApp } from './auth-app';

let smtp: SmtpServer;
let t: AuthApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startAuthApp({ smtpPort: smtp.port });
  await t.app.strapi.store({ type: 'plugin', name: 'users-permissions' }).set({
    key: 'advanced',
    value: { unique_email: true, allow_register: true, email_confirmation: false, email_reset_password: 'https://front.example/reset', email_confirmation_redirection: 'https://front.example/welcome', default_role: 'authenticated' },
  });
});
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

describe('forgot and reset password', () => {
  it('mails a reset link, the code resets the password once, and every earlier session ends', async () => {
    const old = await t.login('reader', 'Reader-pass-1');
    const r = await t.request('POST', '/api/auth/forgot-password', { body: { email: 'READER@example.com' } });
    expect(r).toMatchObject({ status: 200, body: { ok: true } });
    const mail = await smtp.next();
    expect(mail.to).toEqual(['<reader@example.com>']);
    const body = decodeQuotedPrintable(mail.data);
    expect(body).toMatch(/Subject: Reset password/);
    expect(body).toMatch(/From: Administration Panel <no-reply@strapi\.io>/);
    const code = /https:\/\/front\.example\/reset\?code=([0-9a-f]{128})/.exec(body)?.[1];
    expect(code).toBeDefined();

    const reset = await t.request('POST', '/api/auth/reset-password', { body: { code, password: 'Reader-pass-2', passwordConfirmation: 'Reader-pass-2' } });
    expect(reset.status).toBe(200);
    expect(reset.body.user.username).toBe('reader');
    expect((await t.request('GET', '/api/users/me', { jwt: reset.body.jwt })).status).toBe(200);
    expect(await t.request('GET', '/api/users/me', { jwt: old })).toMatchObject({ status: 401, body: { error: { message: 'Invalid credentials' } } });
    // the code is spent
    expect((await t.request('POST', '/api/auth/reset-password', { body: { code, password: 'Reader-pass-3', passwordConfirmation: 'Reader-pass-3' } })).body.error.message).toBe('Incorrect code provided');
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'Reader-pass-1' } })).status).toBe(400);
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'Reader-pass-2' } })).status).toBe(200);
  });

  it('an unknown or blocked address gets the same answer and no mail', async () => {
    const before = smtp.messages.length;
    expect((await t.request('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } })).body).toEqual({ ok: true });
    expect(smtp.messages.length).toBe(before);
  });
});

describe('email confirmation', () => {
  it('register sends a confirmation link instead of a JWT; the link confirms and redirects', async () => {
    const store = t.app.strapi.store({ type: 'plugin', name: 'users-permissions' });
    const advanced = (await store.get({ key: 'advanced' })) as Record<string, unknown>;
    await store.set({ key: 'advanced', value: { ...advanced, email_confirmation: true } });
    // written through strapi.store, as a project bootstrap would: seen by the next request
    const reg = await t.request('POST', '/api/auth/local/register', { body: { username: 'confirmme', email: 'confirmme@example.com', password: 'Confirm-pass-1' } });
    expect(reg.status).toBe(200);
    expect(reg.body.jwt).toBeUndefined();
    expect(reg.body.user).toMatchObject({ username: 'confirmme', confirmed: false });
    const mail = decodeQuotedPrintable((await smtp.next()).data);
    expect(mail).toMatch(/Subject: Account confirmation/);
    const code = /\/api\/auth\/email-confirmation\?confirmation=([0-9a-f]{40})/.exec(mail)?.[1];
    expect(code).toBeDefined();

    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'confirmme', password: 'Confirm-pass-1' } })).body.error).toMatchObject({ name: 'ApplicationError', message: 'Your account email is not confirmed' });
    const confirmed = await t.request('GET', `/api/auth/email-confirmation?confirmation=${code}`);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toBe('https://front.example/welcome');
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'confirmme', password: 'Confirm-pass-1' } })).status).toBe(200);
    expect((await t.request('GET', `/api/auth/email-confirmation?confirmation=${code}`)).body.error.message).toBe('Invalid token');
    expect((await t.request('POST', '/api/auth/send-email-confirmation', { body: { email: 'confirmme@example.com' } })).body.error.message).toBe('Already confirmed');
  });
});

