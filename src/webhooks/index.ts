// v4's write events and webhooks: `entry.create|update|delete` from the entity service (REST and
// `strapi.entityService`), `media.create|update|delete` from the upload service, emitted AFTER the write
// committed (the caller awaited its transaction), with v4's body: `{ event, createdAt, model, uid, entry }`
// or `{ event, createdAt, media }`, the entity sanitized as v4's defaultSanitizeOutput does (no private
// attributes, no passwords, at any depth). `strapi.query` writes emit nothing (as in v4).
//
// The write path's cost with no webhook and no listener: `wants(event)` (a clock read and two map
// lookups); the entity is sanitized and serialized only when something listens.
import type { Model } from '../model/types';
import type { Database } from '../storage/dialect';
import { whenTransactionEnds } from '../storage/lifecycles';
import { sanitizeOutput } from '../plugins/users-permissions/sanitize';
import { Delivery } from './delivery';
import { EventHub } from './event-hub';
import { WebhookList } from './webhook-store';

export type EntryEvent = 'entry.create' | 'entry.update' | 'entry.delete';
export type MediaEvent = 'media.create' | 'media.update' | 'media.delete';

/** how often the webhook list is re-read at most (ms), unless `server.webhooks.reloadInterval` says otherwise */
export const DEFAULT_RELOAD_MS = 5000;
const FILE_UID = 'plugin::upload.file';

export interface WebhooksOptions {
  db: Database;
  model: Model;
  defaultHeaders?: Record<string, unknown>;
  reloadMs?: number;
  timeoutMs?: number;
  globalPrivate?: ReadonlySet<string>;
  warn(msg: string): void;
  error(err: unknown, msg: string): void;
}

/** v4's entity has `null` for a populated multiple media attribute without files (its morph populate) */
function emptyMediaAsNull(model: Model, uid: string, value: unknown): void {
  const ct = model.get(uid);
  if (!ct || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) return value.forEach((v) => emptyMediaAsNull(model, uid, v));
  const data = value as Record<string, unknown>;
  for (const attr of Object.values(ct.attributes)) {
    const v = data[attr.name];
    if (attr.kind === 'media' && Array.isArray(v) && v.length === 0) data[attr.name] = null;
    else if (attr.kind === 'component') emptyMediaAsNull(model, attr.component, v);
    else if (attr.kind === 'dynamiczone' && Array.isArray(v)) for (const item of v) emptyMediaAsNull(model, String((item as Record<string, unknown>)?.__component), item);
  }
}

const bigintAsString = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

export function createWebhooks(o: WebhooksOptions) {
  const list = new WebhookList(o.db, o.reloadMs ?? DEFAULT_RELOAD_MS, o.warn);
  const defaultHeaders = Object.fromEntries(Object.entries(o.defaultHeaders ?? {}).map(([k, v]) => [k, String(v)]));
  const delivery = new Delivery({ defaultHeaders, warn: o.warn, timeoutMs: o.timeoutMs });
  const eventHub = new EventHub((err, event) => o.error(err, `eventHub: a listener of ${event} failed`));
  const globalPrivate = o.globalPrivate ?? new Set<string>();

  /** the webhooks, as v4's runner: one queued call per enabled webhook subscribed to the event */
  function toWebhooks(event: string, info: Record<string, unknown>): void {
    const hooks = list.of(event);
    if (!hooks) return;
    const body = JSON.stringify({ event, createdAt: new Date(), ...info }, bigintAsString);
    for (const hook of hooks) delivery.send(hook, event, body);
  }

  /**
   * `fn` now, or, for a write made inside `strapi.db.transaction(cb)` or by hook code inside another write's
   * transaction (a lifecycle hook calling `strapi.entityService`), once that transaction ended and only if it
   * committed (the hook case: a no-op transaction queued behind it runs next and sees whether a commit
   * happened since, `dataVersion`).
   */
  function whenCommitted(fn: () => void): void {
    if (!whenTransactionEnds(o.db, (committed) => committed && fn())) fn();
  }

  function publish(event: string, info: () => Record<string, unknown>): void {
    const stale = list.stale();
    const listening = eventHub.has(event);
    if (!stale && !list.of(event) && !listening) return; // the common case: one clock read, two lookups
    const payload = info();
    whenCommitted(() => {
      if (stale) {
        // once per reload interval: read the list, then send (a copy: listeners below may change theirs)
        const copy = structuredClone(payload);
        void list.load().then(() => toWebhooks(event, copy));
      } else {
        toWebhooks(event, payload);
      }
      if (listening) void eventHub.emit(event, payload);
    });
  }

  const sanitized = (uid: string, entity: unknown) => {
    const ct = o.model.get(uid);
    // a deep copy: later changes to the caller's entity do not reach the event
    if (!ct) return entity;
    const copy: unknown = JSON.parse(JSON.stringify(sanitizeOutput(o.model, ct, entity, undefined, globalPrivate), bigintAsString));
    emptyMediaAsNull(o.model, uid, copy);
    return copy;
  };

  return {
    eventHub,
    /** after a committed entity-service write of `uid` (nothing when `entity` is null: nothing was written) */
    entry(event: EntryEvent, uid: string, entity: unknown): void {
      if (!entity) return;
      publish(event, () => {
        const ct = o.model.get(uid);
        return { model: ct?.singularName ?? uid, uid, entry: sanitized(uid, entity) };
      });
    },
    /** after a committed upload write */
    media(event: MediaEvent, file: unknown): void {
      if (!file) return;
      publish(event, () => ({ media: sanitized(FILE_UID, file) }));
    },
    /** whether an event would reach a webhook or listener (true while the list is due to be read again) */
    wants: (event: string): boolean => list.stale() || list.of(event) !== undefined || eventHub.has(event),
    /** reads the webhook list now (start-up) */
    load: () => list.load(),
    /** resolves when no call is in flight or waiting */
    idle: () => delivery.idle(),
    /** on shutdown: waiting calls dropped, calls in flight finished (each within its timeout) */
    close: () => delivery.close(),
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
