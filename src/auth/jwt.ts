// The users-permissions JWT, as v4's `jwt` service issues it (jsonwebtoken defaults: HS256, payload
// `{ ...payload, iat, exp }`, `jwt.expiresIn` "30d") and a stricter verification: only HS256 is ever
// accepted (never `alg: none`, never RS256 with the secret as a public key: the CVE-2023-22893 class),
// through jose. Signing is synchronous (v4's `issue()` returns a string, and project code relies on it).
import crypto from 'node:crypto';
import type * as Jose from 'jose';
import { lazyModule } from '../lazy-module';

/** jose on the first token to verify: a public read never needs it (signing is done here, without jose) */
const loadJose = lazyModule('jose', 'JWT verification', () => require('jose') as typeof Jose);

export interface JwtOptions {
  /** seconds (number) or a vercel/ms string: "30d", "12h", "90m", "45s", "500ms" */
  expiresIn?: number | string;
  notBefore?: number | string;
  audience?: string | string[];
  issuer?: string;
  subject?: string;
  /** only HS256; anything else is refused at start-up */
  algorithm?: string;
}

export type JwtPayload = Record<string, unknown> & { iat?: number; exp?: number };

const UNITS: Record<string, number> = {
  ms: 1, msec: 1, msecs: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hr: 3_600_000, hrs: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  w: 604_800_000, week: 604_800_000, weeks: 604_800_000,
  y: 31_557_600_000, yr: 31_557_600_000, yrs: 31_557_600_000, year: 31_557_600_000, years: 31_557_600_000,
};

/** jsonwebtoken's timespan: a number is seconds, a string is parsed by `ms` (no unit: milliseconds). */
export function timespanSeconds(value: number | string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const m = /^(-?(?:\d+)?\.?\d+) *([a-z]*)$/i.exec(String(value).trim());
  const factor = m ? UNITS[(m[2] || 'ms').toLowerCase()] : undefined;
  if (!m || factor === undefined) throw new Error(`"expiresIn" should be a number of seconds or string representing a timespan, got ${JSON.stringify(value)}`);
  return (Number(m[1]) * factor) / 1000;
}

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/** Checks the configured options once (start-up): a wrong algorithm or timespan is a clear error, not a 500 later. */
export function assertJwtOptions(options: JwtOptions): void {
  if (options.algorithm !== undefined && options.algorithm !== 'HS256') {
    throw new Error(`users-permissions jwt.algorithm "${options.algorithm}" is not supported: Tessera signs and accepts HS256 only`);
  }
  if (options.expiresIn !== undefined) timespanSeconds(options.expiresIn);
  if (options.notBefore !== undefined) timespanSeconds(options.notBefore);
}

export function signJwt(payload: Record<string, unknown>, secret: string, options: JwtOptions = {}, now = Date.now()): string {
  assertJwtOptions(options);
  const iat = Math.floor(now / 1000);
  const claims: JwtPayload = { ...payload, iat: typeof payload.iat === 'number' ? payload.iat : iat };
  if (options.notBefore !== undefined) claims.nbf = Math.floor(claims.iat! + timespanSeconds(options.notBefore));
  if (options.expiresIn !== undefined) claims.exp = Math.floor(claims.iat! + timespanSeconds(options.expiresIn));
  if (options.audience !== undefined) claims.aud = options.audience;
  if (options.issuer !== undefined) claims.iss = options.issuer;
  if (options.subject !== undefined) claims.sub = options.subject;
  const body = `${HEADER}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${crypto.createHmac('sha256', secret).update(body).digest('base64url')}`;
}

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** the secret as a KeyObject, made once: importing raw bytes on every verification costs twice the time */
let keyCache: { secret: string; key: crypto.KeyObject } | undefined;
function hmacKey(secret: string): crypto.KeyObject {
  if (keyCache?.secret !== secret) keyCache = { secret, key: crypto.createSecretKey(Buffer.from(secret, 'utf8')) };
  return keyCache.key;
}

/** The payload of a valid HS256 token signed with `secret`; InvalidTokenError for anything else. */
export async function verifyJwt(token: string, secret: string, options: JwtOptions = {}): Promise<JwtPayload> {
  const { errors: joseErrors, jwtVerify } = loadJose();
  try {
    const { payload } = await jwtVerify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      audience: options.audience,
      issuer: options.issuer,
      subject: options.subject,
    });
    return payload as JwtPayload;
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) throw new InvalidTokenError('Invalid token.');
    throw err;
  }
}

export interface JwtServiceDeps {
  secret: () => string;
  options: () => JwtOptions;
}

/** `strapi.plugin('users-permissions').service('jwt')` */
export function createJwtService(deps: JwtServiceDeps) {
  return {
    issue(payload: Record<string, unknown>, jwtOptions: JwtOptions = {}): string {
      const plain = typeof (payload as { toJSON?: () => unknown }).toJSON === 'function' ? (payload as { toJSON: () => Record<string, unknown> }).toJSON() : payload;
      return signJwt({ ...plain }, deps.secret(), { ...deps.options(), ...jwtOptions });
    },
    /** v4: rejects with Error('Invalid token.') */
    verify(token: string): Promise<JwtPayload> {
      return verifyJwt(token, deps.secret(), deps.options());
    },
    /** v4 `getToken(ctx)`: the verified payload of `Authorization: Bearer <jwt>`, or null without one */
    async getToken(ctx: { request?: { headers?: Record<string, unknown> } }): Promise<JwtPayload | null> {
      const header = ctx.request?.headers?.authorization;
      if (typeof header !== 'string') return null;
      const parts = header.split(/\s+/);
      if (parts[0].toLowerCase() !== 'bearer' || parts.length !== 2) return null;
      return this.verify(parts[1]);
    },
  };
}

export type JwtService = ReturnType<typeof createJwtService>;
