// Passwords as v4 stores them: bcrypt (bcryptjs) with the attribute's `encryption.rounds` (default 10),
// done on every create/update of a password attribute (v4's entity-service transform), so `$2a$`/`$2b$`
// hashes written by real Strapi verify here and ours verify there. Hashing and comparing run in worker
// threads (bcrypt-pool.ts), never on the event loop. `passwordStamp` ties a JWT to the password it was
// issued under.
import crypto from 'node:crypto';
import type { ContentType } from '../model/types';
import { bcryptCompare, bcryptHash } from './bcrypt-pool';

export const DEFAULT_BCRYPT_ROUNDS = 10;

export function hashPassword(plain: string, rounds = DEFAULT_BCRYPT_ROUNDS): Promise<string> {
  return bcryptHash(plain, rounds);
}

export async function verifyPassword(plain: unknown, hash: unknown): Promise<boolean> {
  if (typeof plain !== 'string' || typeof hash !== 'string' || hash === '') return false;
  try {
    return await bcryptCompare(plain, hash);
  } catch {
    return false;
  }
}

/**
 * v4's password transform of a write: each password attribute of `ct` given as a string is replaced by its
 * bcrypt hash at the attribute's `encryption.rounds` (4 to 31, else 10). A value that already is a bcrypt
 * hash is kept (never hashed twice). Top-level attributes only, as in v4. `data` is not changed.
 */
export async function hashPasswordAttributes(ct: ContentType, data: Record<string, unknown>): Promise<{ data: Record<string, unknown>; hashed: boolean }> {
  let out: Record<string, unknown> | undefined;
  for (const attr of Object.values(ct.attributes)) {
    const v = data[attr.name];
    if (attr.kind !== 'scalar' || attr.type !== 'password' || typeof v !== 'string' || isBcryptHash(v)) continue;
    const rounds = Number((attr.raw.encryption as { rounds?: unknown } | undefined)?.rounds ?? DEFAULT_BCRYPT_ROUNDS);
    out ??= { ...data };
    out[attr.name] = await hashPassword(v, Number.isInteger(rounds) && rounds >= 4 && rounds <= 31 ? rounds : DEFAULT_BCRYPT_ROUNDS);
  }
  return { data: out ?? data, hashed: out !== undefined };
}

/** True for a value that looks like a bcrypt hash (never re-hash one). */
export function isBcryptHash(v: unknown): boolean {
  return typeof v === 'string' && /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(v);
}

/**
 * A short keyed digest of the stored password hash: put in the JWT when it is issued and compared on every
 * request, so changing or resetting the password invalidates every token issued before (v4 does not).
 * Keyed with the JWT secret: it reveals nothing about the hash.
 */
export function passwordStamp(passwordHash: unknown, secret: string): string {
  return crypto.createHmac('sha256', secret).update(`pwd:${typeof passwordHash === 'string' ? passwordHash : ''}`).digest('base64url').slice(0, 16);
}
