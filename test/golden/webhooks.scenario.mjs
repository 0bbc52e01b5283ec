// The webhook scenario: requests (webhooks.requests.json) sent to a server whose `strapi_webhooks` table
// points at a loopback receiver; what each request made the server POST is captured and normalised.
// Recorded on real Strapi 4.26.2 (webhooks.golden.json), replayed on Tessera by
// test/compat/webhooks.golden.test.ts. To record (v4 reads the table at start-up; DEFAULT_HEADERS added to
// DEST/config/server.js `webhooks`):
//   ~/bin/strapi-fresh DEST 1345 && DEST/stop.sh
//   node test/golden/webhooks.scenario.mjs --insert-rows DEST/.tmp/data.db --port 1450
//   PORT=1345 DEST/start.sh
//   node test/golden/webhooks.scenario.mjs --base http://127.0.0.1:1345 --token DEST/.tmp/token.txt --port 1450
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** the headers compared: the ones v4's runner sets plus the per-webhook and default ones of the scenario */
export const COMPARED_HEADERS = ['content-type', 'x-strapi-event', 'x-custom', 'x-default', 'authorization'];

/** the rows the scenario expects in strapi_webhooks, `${receiver}` replaced by the receiver's origin */
export const WEBHOOK_ROWS = [
  { name: 'all', url: '${receiver}/all', headers: { 'X-Custom': 'abc', Authorization: 'Bearer hook' }, events: ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'], enabled: true },
  { name: 'off', url: '${receiver}/off', headers: {}, events: ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'], enabled: false },
  { name: 'create-only', url: '${receiver}/create', headers: {}, events: ['entry.create'], enabled: true },
];
/** `server.webhooks.defaultHeaders` of the scenario (X-Custom is overridden by the webhook's own) */
export const DEFAULT_HEADERS = { 'X-Default': 'd', 'X-Custom': 'from-default' };

export function loadSteps() {
  return JSON.parse(fs.readFileSync(path.join(HERE, 'webhooks.requests.json'), 'utf8'));
}

/** a loopback receiver appending every request it gets to `posts` */
export function startReceiver(port = 0) {
  const posts = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      posts.push({ method: req.method, path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => {
    resolve({ origin: `http://127.0.0.1:${server.address().port}`, posts, close: () => new Promise((r) => server.close(() => r())) });
  }));
}

const idOf = (body) => (Array.isArray(body) ? body[0]?.id : body?.data?.id ?? body?.user?.id ?? body?.id);

function fill(value, ids) {
  if (typeof value === 'string') {
    const whole = /^\{([^{}]+)\}$/.exec(value);
    if (whole && whole[1] in ids) return ids[whole[1]];
    return value.replace(/\{([^{}]+)\}/g, (m, name) => (name in ids ? String(ids[name]) : m));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, ids)]));
  return value;
}

async function settle(posts, quietMs, maxMs) {
  const start = Date.now();
  let n = posts.length;
  let since = Date.now();
  while (Date.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 25));
    if (posts.length !== n) { n = posts.length; since = Date.now(); }
    else if (Date.now() - since >= quietMs) return;
  }
}

/** sends the steps in order; returns per step its status and the posts it caused (raw) */
export async function runScenario({ base, token, posts, steps = loadSteps(), quietMs = 300, maxMs = 3000 }) {
  const ids = {};
  const out = [];
  for (const step of steps) {
    const headers = {};
    if (step.auth !== 'none') headers.authorization = `Bearer ${token}`;
    let body;
    if (step.multipart) {
      const form = new FormData();
      for (const [k, v] of Object.entries(step.multipart)) {
        if (typeof v === 'string') form.append(k, fill(v, ids));
        else form.append(k, new Blob([Buffer.from(v.base64, 'base64')], { type: v.type }), v.name);
      }
      body = form;
    } else if (step.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(fill(step.body, ids));
    }
    const before = posts.length;
    const res = await fetch(base + fill(step.path, ids), { method: step.method, headers, body });
    const json = await res.json().catch(() => null);
    const id = idOf(json);
    if (res.ok && id !== undefined) ids[step.name] = id;
    await settle(posts, quietMs, maxMs);
    out.push({ name: step.name, status: res.status, posts: posts.slice(before) });
  }
  return out;
}

const NOW_WINDOW_MS = 60 * 60 * 1000;

function normaliseValue(v, now) {
  if (typeof v === 'string') {
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v) && Math.abs(Date.parse(v) - now) < NOW_WINDOW_MS) return '<now>';
    return v.replace(/hook_[0-9a-f]{10}/g, 'hook_<hash>');
  }
  if (Array.isArray(v)) return v.map((x) => normaliseValue(x, now));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normaliseValue(x, now)]));
  return v;
}

/** what is compared: per step the status and the posts (path, compared headers, JSON body), in a stable order */
export function normalise(results, now = Date.now()) {
  return results.map((r) => ({
    name: r.name,
    status: r.status,
    posts: r.posts
      .map((p) => ({
        method: p.method,
        path: p.path,
        headers: Object.fromEntries(COMPARED_HEADERS.filter((h) => h in p.headers).map((h) => [h, p.headers[h]])),
        body: normaliseValue(JSON.parse(p.body), now),
      }))
      .sort((a, b) => (a.path + a.body.event).localeCompare(b.path + b.body.event)),
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--insert-rows')) {
  const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(arg('--insert-rows'));
  const insert = db.prepare('INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, ?)');
  for (const w of WEBHOOK_ROWS) insert.run(w.name, w.url.replace('${receiver}', `http://127.0.0.1:${arg('--port')}`), JSON.stringify(w.headers), JSON.stringify(w.events), w.enabled ? 1 : 0);
  db.close();
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
  const token = fs.readFileSync(arg('--token').replace(/^~/, process.env.HOME), 'utf8').trim();
  const receiver = await startReceiver(Number(arg('--port')));
  const results = await runScenario({ base: arg('--base'), token, posts: receiver.posts, quietMs: 600, maxMs: 5000 });
  await receiver.close();
  // every header as received (user-agent and the like are not compared): for reading, not kept
  fs.writeFileSync(path.join(os.tmpdir(), 'webhooks.raw.json'), JSON.stringify(results, null, 1) + '\n');
  fs.writeFileSync(path.join(HERE, 'webhooks.golden.json'), JSON.stringify(normalise(results), null, 1) + '\n');
  console.log(results.map((r) => `${r.status} ${r.name}: ${r.posts.map((p) => `${p.path} ${p.headers['x-strapi-event']}`).join(', ')}`).join('\n'));
}
