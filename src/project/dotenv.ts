// `.env` loading as v4 does it (dotenv.config()): variables already set are never overwritten.
// Written here rather than depending on the dotenv package; follows dotenv v16 parsing rules.
import fs from 'node:fs';
import path from 'node:path';
import type { EnvSource } from './env';

// KEY=value | export KEY=value | KEY: value; value quoted ('…', "…", `…`, may span lines) or bare up to '#'.
const LINE = /^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$/gm;

/** Parse dotenv text into key/value pairs (later duplicates win, as in dotenv). */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const src = text.replace(/\r\n?/g, '\n');
  let m: RegExpExecArray | null;
  while ((m = LINE.exec(src)) !== null) {
    let value = (m[2] ?? '').trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      // only double quotes expand escaped newlines
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    }
    out[m[1]] = value;
  }
  LINE.lastIndex = 0;
  return out;
}

/**
 * Load `<dir>/.env` (or `$ENV_PATH`, resolved against dir, as v4 honours it) into `target`.
 * Returns the parsed pairs; a missing file is not an error.
 */
export function loadDotenv(dir: string, target: EnvSource = process.env): Record<string, string> {
  const file = target.ENV_PATH ? path.resolve(dir, target.ENV_PATH) : path.join(dir, '.env');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const parsed = parseDotenv(text);
  for (const [key, value] of Object.entries(parsed)) {
    if (!Object.prototype.hasOwnProperty.call(target, key)) target[key] = value;
  }
  return parsed;
}
