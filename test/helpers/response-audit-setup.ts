// vitest setup file: every response of every server a test builds (fastify inject or a listening server,
// including what strapi-diff replays against it) is scanned for password hashes, reset and confirmation
// tokens (response-audit.ts). A test whose server sent one fails, naming the request.
import { afterEach } from 'vitest';
import { addResponseAuditor } from '../../src/server/response-audit';
import { findSecrets } from './response-audit';

const leaks: string[] = [];
let seen = 0;

addResponseAuditor((r) => {
  seen++;
  const text = typeof r.body === 'string' ? r.body : r.body.toString('latin1');
  const secrets = findSecrets(text);
  if (secrets.length) leaks.push(`${r.method} ${r.url} -> ${r.status}: ${secrets.join(', ')}`);
});

/** responses audited so far in this test file (the audit's own test checks it moves) */
export function auditedResponses(): number {
  return seen;
}

afterEach(() => {
  if (leaks.length) {
    const list = leaks.splice(0);
    throw new Error(`responses leaked secrets:\n  ${list.join('\n  ')}`);
  }
});
