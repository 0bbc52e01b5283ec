// API tokens of every type with known keys, written into a copy of the fixture database exactly as v4
// stores them (HMAC-SHA512 with the fixture salt; permissions through v4's link table). The same rows were
// written into real Strapi's database to record test/golden/auth-tokens.golden.jsonl, so the requests can
// name the keys and both servers see the same tokens.
import crypto from 'node:crypto';
import Database from 'better-sqlite3';

export const FIXTURE_SALT = 'peer-api-token-salt-not-for-production';

export const SEEDED_TOKENS = {
  readOnly: { key: 'ab'.repeat(128), type: 'read-only', expiresAt: null, permissions: [] as string[] },
  custom: { key: 'cd'.repeat(128), type: 'custom', expiresAt: null, permissions: ['api::category.category.find', 'plugin::users-permissions.user.find', 'api::article.article.findOne'] },
  expired: { key: 'ef'.repeat(128), type: 'full-access', expiresAt: Date.UTC(2020, 0, 1), permissions: [] as string[] },
  readOnlyUntil2100: { key: '12'.repeat(128), type: 'read-only', expiresAt: Date.UTC(2100, 0, 1), permissions: [] as string[] },
} as const;

export function seedTokenTypes(dbFile: string): void {
  const db = new Database(dbFile);
  try {
    const now = Date.UTC(2026, 10, 22);
    const insertToken = db.prepare('INSERT INTO strapi_api_tokens (name, description, type, access_key, expires_at, lifespan, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const insertPerm = db.prepare('INSERT INTO strapi_api_token_permissions (action, created_at, updated_at) VALUES (?, ?, ?)');
    const link = db.prepare('INSERT INTO strapi_api_token_permissions_token_links (api_token_permission_id, api_token_id, api_token_permission_order) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (const [name, t] of Object.entries(SEEDED_TOKENS)) {
        const hash = crypto.createHmac('sha512', FIXTURE_SALT).update(t.key).digest('hex');
        const lifespan = t.expiresAt === null ? null : 7 * 24 * 3600 * 1000;
        const id = Number(insertToken.run(`seed-${name}`, '', t.type, hash, t.expiresAt, lifespan, now, now).lastInsertRowid);
        t.permissions.forEach((action, i) => link.run(Number(insertPerm.run(action, now, now).lastInsertRowid), id, i + 1));
      }
    })();
  } finally {
    db.close();
  }
}
