// The users-permissions JWT: HS256 as jsonwebtoken signs it (v4's claims and lifetime), and a verification
// that accepts HS256 with the right secret only.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJwtService, signJwt, timespanSeconds, verifyJwt, InvalidTokenError, assertJwtOptions } from '../../../src/auth/jwt';
import { MISSING_JWT_SECRET, resolveJwtSecret } from '../../../src/auth/jwt-secret';

const SECRET = 'peer-users-permissions-jwt-secret-not-for-production';
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const hmac = (alg: string, body: string, key = SECRET) => crypto.createHmac(alg, key).update(body).digest('base64url');
const payloadOf = (t: string) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString());

describe('signJwt', () => {
  it('writes what jsonwebtoken writes for v4: HS256 header, payload + iat + exp (30 days)', () => {
    const now = 1_795_370_041_123;
    const t = signJwt({ id: 1 }, SECRET, { expiresIn: '30d' }, now);
    const [h, p, sig] = t.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(p, 'base64url').toString())).toEqual({ id: 1, iat: 1_795_370_041, exp: 1_795_370_041 + 30 * 86400 });
    expect(sig).toBe(hmac('sha256', `${h}.${p}`));
  });

  it('issues exactly the token real Strapi issued at that second, and verifies its own', async () => {
    // issued by Strapi 4.26.2 on the fixture app (POST /api/auth/local), expires 2026-12-22
    const fromStrapi = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MSwiaWF0IjoxNzk1MzcwMDQxLCJleHAiOjE3OTc5NjIwNDF9.GgdgrbYFsU6SkJBWzrxh8Xq5oo3MWNK59-02agkeSyw';
    // byte for byte: same header, claims, order and signature
    expect(signJwt({ id: 1 }, SECRET, { expiresIn: '30d' }, 1_795_370_041_500)).toBe(fromStrapi);
    const ours = signJwt({ id: 7 }, SECRET, { expiresIn: '1h' });
    expect((await verifyJwt(ours, SECRET)).id).toBe(7);
  });

  it('parses timespans as jsonwebtoken does', () => {
    expect(timespanSeconds(60)).toBe(60);
    expect(timespanSeconds('30d')).toBe(30 * 86400);
    expect(timespanSeconds('7 days')).toBe(7 * 86400);
    expect(timespanSeconds('2h')).toBe(7200);
    expect(timespanSeconds('1.5m')).toBe(90);
    expect(timespanSeconds('500')).toBe(0.5); // no unit: milliseconds
    expect(() => timespanSeconds('soon')).toThrow(/expiresIn/);
    expect(() => assertJwtOptions({ algorithm: 'RS256' })).toThrow(/HS256 only/);
    expect(() => assertJwtOptions({ expiresIn: 'forever' })).toThrow();
  });
});

describe('verifyJwt rejects everything but a valid HS256 token signed with the secret', () => {
  const header = b64({ alg: 'HS256', typ: 'JWT' });
  const claims = b64({ id: 1, iat: 1_700_000_000, exp: 4_000_000_000 });
  const valid = `${header}.${claims}.${hmac('sha256', `${header}.${claims}`)}`;
  const reject = (t: string) => expect(verifyJwt(t, SECRET)).rejects.toBeInstanceOf(InvalidTokenError);

  it('accepts the valid one', async () => {
    expect((await verifyJwt(valid, SECRET)).id).toBe(1);
  });

  it('alg none (unsigned, with or without a signature part)', async () => {
    const none = b64({ alg: 'none', typ: 'JWT' });
    await reject(`${none}.${claims}.`);
    await reject(`${none}.${claims}`);
    await reject(`${none}.${claims}.${hmac('sha256', `${none}.${claims}`)}`);
  });

  it('RS256 signed with a private key, and RS256 "signed" with the secret as an HMAC key', async () => {
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs = b64({ alg: 'RS256', typ: 'JWT' });
    await reject(`${rs}.${claims}.${crypto.sign('sha256', Buffer.from(`${rs}.${claims}`), privateKey).toString('base64url')}`);
    await reject(`${rs}.${claims}.${hmac('sha256', `${rs}.${claims}`)}`);
  });

  it('HS384 / HS512 with the right secret (v4 accepts them; we issue and accept HS256 only)', async () => {
    for (const [alg, h] of [['HS384', 'sha384'], ['HS512', 'sha512']]) {
      const hd = b64({ alg, typ: 'JWT' });
      await reject(`${hd}.${claims}.${hmac(h, `${hd}.${claims}`)}`);
    }
  });

  it('a tampered payload, a wrong secret, an expired token, garbage', async () => {
    const [h, , sig] = valid.split('.');
    await reject(`${h}.${b64({ id: 2, iat: 1_700_000_000, exp: 4_000_000_000 })}.${sig}`);
    await reject(`${header}.${claims}.${hmac('sha256', `${header}.${claims}`, 'another-secret')}`);
    await reject(signJwt({ id: 1 }, SECRET, { expiresIn: 1 }, Date.now() - 10_000));
    await reject('nope');
    await reject('');
    await reject('a.b.c');
  });
});

describe('the jwt service (strapi.plugin("users-permissions").service("jwt"))', () => {
  const svc = createJwtService({ secret: () => SECRET, options: () => ({ expiresIn: '30d' }) });
  it('issue() is synchronous and takes per-call options; getToken() reads the header', async () => {
    const t = svc.issue({ id: 3 }, { expiresIn: '1h' });
    expect(typeof t).toBe('string');
    expect(payloadOf(t).exp - payloadOf(t).iat).toBe(3600);
    expect((await svc.getToken({ request: { headers: { authorization: `Bearer ${t}` } } }))?.id).toBe(3);
    expect(await svc.getToken({ request: { headers: { authorization: `Basic ${t}` } } })).toBeNull();
    expect(await svc.getToken({ request: { headers: {} } })).toBeNull();
    await expect(svc.verify('x.y.z')).rejects.toThrow('Invalid token.');
  });
});

describe('resolveJwtSecret (v4 plugin bootstrap)', () => {
  const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-jwt-'));
  const log = { info: () => undefined };

  it('takes the configured secret, then JWT_SECRET, then the project .env', () => {
    const dir = tmpDir();
    expect(resolveJwtSecret({ configured: 'from-config', projectDir: dir, env: { JWT_SECRET: 'env' }, log })).toEqual({ secret: 'from-config', generated: false });
    expect(resolveJwtSecret({ configured: undefined, projectDir: dir, env: { JWT_SECRET: 'env' }, log })).toEqual({ secret: 'env', generated: false });
    fs.writeFileSync(path.join(dir, '.env'), 'HOST=0.0.0.0\nJWT_SECRET="from-dotenv"\n');
    expect(resolveJwtSecret({ configured: '', projectDir: dir, env: {}, log })).toEqual({ secret: 'from-dotenv', generated: false });
    fs.rmSync(dir, { recursive: true });
  });

  it('without one, generates a random secret and appends it to .env (ENV_PATH honoured), as v4 does', () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, '.env'), 'HOST=0.0.0.0');
    const first = resolveJwtSecret({ configured: undefined, projectDir: dir, env: {}, log });
    expect(first.generated).toBe(true);
    expect(Buffer.from(first.secret, 'base64')).toHaveLength(16);
    expect(fs.readFileSync(path.join(dir, '.env'), 'utf8')).toBe(`HOST=0.0.0.0\nJWT_SECRET=${first.secret}\n`);
    // the next start finds it
    expect(resolveJwtSecret({ configured: undefined, projectDir: dir, env: {}, log })).toEqual({ secret: first.secret, generated: false });
    const other = resolveJwtSecret({ configured: undefined, projectDir: dir, env: { ENV_PATH: 'custom.env' }, log });
    expect(other.secret).not.toBe(first.secret);
    expect(fs.readFileSync(path.join(dir, 'custom.env'), 'utf8')).toBe(`JWT_SECRET=${other.secret}\n`);
    fs.rmSync(dir, { recursive: true });
  });

  it('refuses to start in production without one (v4)', () => {
    const dir = tmpDir();
    expect(() => resolveJwtSecret({ configured: undefined, projectDir: dir, env: { NODE_ENV: 'production' }, log })).toThrow(MISSING_JWT_SECRET);
    expect(fs.existsSync(path.join(dir, '.env'))).toBe(false);
    fs.rmSync(dir, { recursive: true });
  });
});
