// Where the users-permissions JWT secret comes from, as v4's plugin bootstrap decides it:
// config/plugins.js `users-permissions.config.jwtSecret`, else JWT_SECRET (environment or the project's
// .env). With neither, v4 generates one (16 random bytes, base64), keeps it in the config and appends
// `JWT_SECRET=...` to the project's `.env` (or ENV_PATH) so the next start signs with the same secret.
// Never a fixed default. In production v4 refuses to start instead; so do we.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseDotenv } from '../project/dotenv';

export interface JwtSecretSource {
  /** `plugin.users-permissions.jwtSecret` from the project config */
  configured: unknown;
  projectDir: string;
  env: Record<string, string | undefined>;
  log: { info(msg: string): void };
}

export const MISSING_JWT_SECRET = `Missing jwtSecret. Please, set configuration variable "jwtSecret" for the users-permissions plugin in config/plugins.js (ex: you can generate one using Node with \`crypto.randomBytes(16).toString('base64')\`).
For security reasons, prefer storing the secret in an environment variable and read it in config/plugins.js. See https://docs.strapi.io/developer-docs/latest/setup-deployment-guides/configurations/optional/environment.html#configuration-using-environment-variables.`;

function envFile(s: JwtSecretSource): string {
  return path.resolve(s.projectDir, s.env.ENV_PATH || '.env');
}

function fromDotenv(file: string): string | undefined {
  try {
    return parseDotenv(fs.readFileSync(file, 'utf8')).JWT_SECRET || undefined;
  } catch {
    return undefined;
  }
}

/** The secret to sign and verify with; `generated` when this start created (and persisted) it. */
export function resolveJwtSecret(s: JwtSecretSource): { secret: string; generated: boolean } {
  if (typeof s.configured === 'string' && s.configured !== '') return { secret: s.configured, generated: false };
  const fromEnv = s.env.JWT_SECRET || fromDotenv(envFile(s));
  if (fromEnv) return { secret: fromEnv, generated: false };
  if (s.env.NODE_ENV === 'production') throw new Error(MISSING_JWT_SECRET);
  const secret = crypto.randomBytes(16).toString('base64');
  const file = envFile(s);
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  fs.appendFileSync(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}JWT_SECRET=${secret}\n`, { mode: 0o600 });
  s.log.info(`The Users & Permissions plugin automatically generated a jwt secret and stored it in ${path.relative(s.projectDir, file) || file} under the name JWT_SECRET.`);
  return { secret, generated: true };
}
