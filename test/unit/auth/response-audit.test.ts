// The response audit itself: it must see the responses of servers the tests build, and recognise what
// must never leave the server.
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/auth/passwords';
import { startFixtureApp } from '../../helpers/fixture-app';
import { findSecrets } from '../../helpers/response-audit';
import { auditedResponses } from '../../helpers/response-audit-setup';
import { addResponseAuditor } from '../../../src/server/response-audit';

describe('findSecrets', () => {
  it('finds bcrypt hashes of every prefix, reset and confirmation tokens, private user attributes', async () => {
    const hash = await hashPassword('Some-pass-1', 4);
    expect(findSecrets(JSON.stringify({ x: hash }))).toContain('a bcrypt password hash');
    for (const p of ['$2a$', '$2b$', '$2y$']) expect(findSecrets(`{"v":"${hash.replace(/^\$2.\$/, p)}"}`).length).toBeGreaterThan(0);
    expect(findSecrets(JSON.stringify({ code: 'ab'.repeat(64) }))).toEqual(['a reset-password token (128 hex characters)']);
    expect(findSecrets(JSON.stringify({ c: '0f'.repeat(20) }))).toEqual(['a confirmation token (40 hex characters)']);
    expect(findSecrets('{"resetPasswordToken":"x"}')).toEqual(['the private attribute "resetPasswordToken"']);
    expect(findSecrets('{"password":null,"confirmationToken":null}')).toEqual([]);
  });

  it('leaves ordinary answers alone', () => {
    expect(findSecrets(JSON.stringify({ jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.sig', user: { id: 1, username: 'reader', email: 'r@example.com' } }))).toEqual([]);
    expect(findSecrets(JSON.stringify({ error: { message: 'password must be at least 6 characters' } }))).toEqual([]);
  });
});

describe('the server hook', () => {
  it('hands every response of a test server to the installed auditors', async () => {
    const app = await startFixtureApp(true);
    const seen: string[] = [];
    const remove = addResponseAuditor((r) => seen.push(`${r.method} ${r.url} ${r.status}`));
    try {
      const before = auditedResponses();
      await fetch(`${app.url}/api/categories?pagination[pageSize]=1`);
      await fetch(`${app.url}/api/users`);
      const login = await fetch(`${app.url}/api/auth/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'reader', password: 'Reader-pass-1' }) });
      expect(login.status).toBe(200);
      expect(seen).toEqual(['GET /api/categories?pagination[pageSize]=1 200', 'GET /api/users 403', 'POST /api/auth/local 200']);
      expect(auditedResponses() - before).toBe(3);
    } finally {
      remove();
      await app.stop();
    }
  });
});
