// Passwords as v4 stores them: bcrypt (bcryptjs) with the attribute's `encryption.rounds` (default 10),
// done by the entity service on create/update, so `$2a$`/`$2b$` hashes written by real Strapi verify here
// and ours verify there. `passwordStamp` ties a JWT to the password it was issued under.
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';

export const DEFAULT_BCRYPT_ROUNDS = 10;

export function hashPassword(plain: string, rounds = DEFAULT_BCRYPT_ROUNDS): string {
  return bcrypt.hashSync(plain, rounds);
}

export async function verifyPassword(plain: unknown, hash: unknown): Promise<boolean> {
  if (typeof plain !== 'string' || typeof hash !== 'string' || hash === '') return false;
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false;
  }
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
