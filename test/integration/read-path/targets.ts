// Runs one REST read through both compile targets of the read path, from the same validated query:
// the JavaScript path (storage/read-entities.ts + content/entry-shape.ts, the reference) and the JSON path
// (storage/read-json.ts: SQLite writes each entry). Both answers are compared as the text a client gets.
import qs from 'qs';
import { expect } from 'vitest';
import { createDocumentService } from '../../../src/documents/document-service';
import type { ContentType, Model } from '../../../src/model/types';
import { DEFAULT_QUERY_LIMITS, type QueryContext } from '../../../src/query/query-context';
import { createCoreService, type CoreService } from '../../../src/content/core-service';
import { parseRestQuery, type RestQuery } from '../../../src/query/parse-query';
import { transformResponse } from '../../../src/content/entry-shape';
import type { Database } from '../../../src/storage/dialect';

export interface Targets {
  model: Model;
  /** the core service of a type, without the i18n plugin (its entry meta is JS-only by design) */
  service(uid: string): CoreService;
  context: QueryContext;
}

export function targetsFor(db: Database, model: Model, privateAttributes: string[] = [], canRead: (uid: string) => boolean = () => true): Targets {
  const documents = createDocumentService(db, model);
  const services = new Map<string, CoreService>();
  return {
    model,
    context: {
      model, canRead, limits: DEFAULT_QUERY_LIMITS,
      visibility: { globalPrivate: new Set(privateAttributes) },
      pagination: { defaultLimit: 25, maxLimit: 100, withCount: true },
    },
    service(uid) {
      let s = services.get(uid);
      if (!s) services.set(uid, (s = createCoreService({ db, model, documents, defaultLocale: () => 'en' }, model.require(uid))));
      return s;
    },
  };
}

export type Outcome = 'compared' | 'rejected' | 'single type' | 'js only';

/** `/api/articles/2?populate=*` -> the content type, the id (findOne), the parsed query string */
export function readRequest(model: Model, url: string): { ct: ContentType; id?: number; raw: Record<string, unknown> } | null {
  const [path, query = ''] = url.split('?');
  const m = /^\/api\/([^/]+)(?:\/(\d+))?$/.exec(path);
  if (!m) return null;
  const ct = [...model.contentTypes.values()].find((t) => t.pluralName === m[1] || (t.kind === 'singleType' && t.singularName === m[1]));
  if (!ct) return null;
  const raw = qs.parse(query, { strictNullHandling: true, arrayLimit: 100, depth: 20 }) as Record<string, unknown>;
  return { ct, id: m[2] === undefined ? undefined : Number(m[2]), raw };
}

function parse(t: Targets, ct: ContentType, raw: Record<string, unknown>, action: 'find' | 'findOne'): RestQuery | null {
  try {
    return parseRestQuery(t.context, ct, raw, action);
  } catch {
    return null; // a 400: neither target runs
  }
}

/** The JS reference's answer and the JSON target's, as response texts (null: the JSON target declined). */
export async function bothTargets(t: Targets, url: string): Promise<{ outcome: Outcome; js?: string; json?: string | null }> {
  const req = readRequest(t.model, url);
  if (!req) throw new Error(`not a REST read: ${url}`);
  const { ct, id, raw } = req;
  if (ct.kind === 'singleType') return { outcome: 'single type' };
  const svc = t.service(ct.uid);
  if (id === undefined) {
    const q = parse(t, ct, raw, 'find');
    if (!q) return { outcome: 'rejected' };
    const { results, pagination } = await svc.find(q);
    const js = JSON.stringify(transformResponse(t.model, ct, results, { pagination }));
    const page = await svc.findJson(q);
    if (!page) return { outcome: 'js only', js, json: null };
    const meta = page.pagination ? { pagination: page.pagination } : {};
    return { outcome: 'compared', js, json: `{"data":[${page.entries.join(',')}],"meta":${JSON.stringify(meta)}}` };
  }
  const q = parse(t, ct, raw, 'findOne');
  if (!q) return { outcome: 'rejected' };
  const entity = await svc.findOne(id, q);
  const js = JSON.stringify(entity ? transformResponse(t.model, ct, entity, {}) : null);
  const text = await svc.findOneJson(id, q);
  if (text === undefined) return { outcome: 'js only', js, json: null };
  return { outcome: 'compared', js, json: text === null ? 'null' : `{"data":${text},"meta":{}}` };
}

/** Asserts both targets give the same response (values and key order, as a client parses them). */
export async function expectSameAnswer(t: Targets, url: string): Promise<Outcome> {
  const r = await bothTargets(t, url);
  if (r.outcome === 'compared') {
    // the same values as a client parses them (Object.is: -0 is not 0), the same key order, the same bytes
    const json = JSON.parse(r.json!) as unknown;
    expect(json, url).toStrictEqual(JSON.parse(r.js!));
    expect(JSON.stringify(json), url).toBe(r.js);
    expect(r.json, url).toBe(r.js);
  }
  return r.outcome;
}

interface GoldenRequest {
  method: string;
  url: string;
  body?: unknown;
  auth?: string;
  files?: unknown;
}

/**
 * Replays a golden request list on a running app: writes go through HTTP (with the app's API token), and
 * at every read both targets answer from the database as it is at that point.
 */
export async function replayComparing(app: { server: { inject: (o: object) => Promise<{ statusCode: number }> } }, t: Targets, requests: GoldenRequest[], token: string): Promise<Record<Outcome, string[]>> {
  const seen: Record<Outcome, string[]> = { compared: [], rejected: [], 'single type': [], 'js only': [] };
  for (const r of requests) {
    if (r.method === 'GET') {
      if (r.url.startsWith('/api/') && readRequest(t.model, r.url)) seen[await expectSameAnswer(t, r.url)].push(r.url);
      continue;
    }
    if (r.files || r.auth === 'jwt') continue; // uploads and sessions are not this test's subject
    const headers: Record<string, string> = r.auth === 'none' ? {} : { authorization: `Bearer ${token}` };
    if (typeof r.body === 'string') headers['content-type'] = 'application/json';
    await app.server.inject({ method: r.method, url: r.url, headers, payload: r.body as object | string | undefined });
  }
  return seen;
}
