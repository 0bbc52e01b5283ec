// The webhooks v4's admin keeps in `strapi_webhooks` (id, name, url, headers json, events json, enabled).
// v4 loads them at start-up and its admin API refreshes its runner on every edit; Tessera has no admin, and
// a v4 admin may edit the table while Tessera serves the same database, so the list is re-read when it
// is older than `reloadMs` (on the next write that could emit an event: no timer, one number compared per
// write otherwise). A full re-read of this tiny table is as cheap as asking whether it changed.
import type { Executor } from '../storage/dialect';

export interface Webhook {
  id: number;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
}

type Warn = (msg: string) => void;

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** one row -> a webhook, or a reason it is left out (only enabled rows with an http(s) url are kept) */
export function webhookOf(row: Record<string, unknown>): Webhook | string | null {
  if (!(row.enabled === 1 || row.enabled === true || row.enabled === '1' || row.enabled === 'true')) return null;
  const events = parseJson(row.events);
  const headers = parseJson(row.headers) ?? {};
  let url: URL;
  try {
    url = new URL(String(row.url ?? ''));
  } catch {
    return `webhook ${row.id}: invalid url ${JSON.stringify(row.url)}; not sent`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `webhook ${row.id}: only http and https urls are sent (${url.protocol})`;
  if (!Array.isArray(events)) return `webhook ${row.id}: events is not a list; not sent`;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return `webhook ${row.id}: headers is not an object; not sent`;
  return {
    id: Number(row.id),
    name: String(row.name ?? ''),
    url: url.href,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
    events: events.map(String),
  };
}

export class WebhookList {
  /** event -> enabled webhooks subscribed to it */
  private byEvent = new Map<string, Webhook[]>();
  /** not before `load()`: as v4, webhooks start after the bootstrap (its writes send none) */
  private nextLoad = Infinity;
  private loading: Promise<void> | null = null;
  private warned = new Set<string>();

  constructor(private readonly ex: Executor, private readonly reloadMs: number, private readonly warn: Warn) {}

  /** true when the list must be read before it can answer */
  stale(now = Date.now()): boolean {
    return now >= this.nextLoad;
  }

  /** the webhooks of `event` as last read (call `stale()` first) */
  of(event: string): Webhook[] | undefined {
    return this.byEvent.get(event);
  }

  load(): Promise<void> {
    this.loading ??= this.read().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async read(): Promise<void> {
    let rows: Array<Record<string, unknown>>;
    try {
      rows = await this.ex.all('SELECT id, name, url, headers, events, enabled FROM strapi_webhooks ORDER BY id');
    } catch (err) {
      rows = [];
      this.warnOnce(`webhooks: could not read strapi_webhooks: ${(err as Error).message}`);
    }
    const byEvent = new Map<string, Webhook[]>();
    for (const row of rows) {
      const hook = webhookOf(row);
      if (typeof hook === 'string') this.warnOnce(hook);
      if (!hook || typeof hook === 'string') continue;
      for (const event of new Set(hook.events)) {
        const list = byEvent.get(event) ?? [];
        list.push(hook);
        byEvent.set(event, list);
      }
    }
    this.byEvent = byEvent;
    this.nextLoad = Date.now() + this.reloadMs;
  }

  private warnOnce(msg: string): void {
    if (this.warned.has(msg)) return;
    this.warned.add(msg);
    this.warn(msg);
  }
}
