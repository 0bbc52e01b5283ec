// Applies auth-connect.setup.json to a Strapi database before recording auth-connect.golden.jsonl from real
// Strapi (stopped): node test/golden/auth-connect-setup.mjs ~/strapi4-rec/.tmp/data.db
// (the replay, test/compat/auth-connect.golden.test.ts, applies the same file through strapi.store).
import fs from 'node:fs';
import { createRequire } from 'node:module';

const Database = createRequire(import.meta.url)('better-sqlite3');
const setup = JSON.parse(fs.readFileSync(new URL('./auth-connect.setup.json', import.meta.url), 'utf8'));
const db = new Database(process.argv[2]);
const key = 'plugin_users-permissions_grant';
const grant = JSON.parse(db.prepare('SELECT value FROM strapi_core_store_settings WHERE key = ?').get(key).value);
for (const [provider, patch] of Object.entries(setup.grant)) grant[provider] = { ...grant[provider], ...patch };
db.prepare('UPDATE strapi_core_store_settings SET value = ? WHERE key = ?').run(JSON.stringify(grant), key);
db.close();
console.log(`grant settings patched: ${Object.keys(setup.grant).join(', ')}`);
