// Sending webhook POSTs: asynchronous, never in the way of the request that caused them. As v4's runner
// (webhook-runner.js): headers = defaultHeaders, then the webhook's own, then X-Strapi-Event and
// Content-Type; a 10 s timeout; no retries; at most 5 calls at a time (v4's worker queue concurrency).
// Unlike v4 the waiting queue is bounded (MAX_QUEUED): beyond it new calls are dropped with a warning, so
// a flood of writes with a slow receiver cannot hold unbounded memory. Failures are logged, never thrown.
import type { Webhook } from './webhook-store';

export const CONCURRENCY = 5;
export const MAX_QUEUED = 1000;
export const TIMEOUT_MS = 10_000;

export interface DeliveryOptions {
  defaultHeaders: Record<string, string>;
  warn(msg: string): void;
  timeoutMs?: number;
  maxQueued?: number;
}

interface Job {
  hook: Webhook;
  event: string;
  body: string;
}

export class Delivery {
  private running = 0;
  private readonly queue: Job[] = [];
  private idleWaiters: Array<() => void> = [];
  private dropped = 0;

  constructor(private readonly opts: DeliveryOptions) {}

  send(hook: Webhook, event: string, body: string): void {
    if (this.running < CONCURRENCY) {
      this.running++;
      void this.run({ hook, event, body });
      return;
    }
    if (this.queue.length >= (this.opts.maxQueued ?? MAX_QUEUED)) {
      if (this.dropped++ % 100 === 0) this.opts.warn(`webhooks: ${this.dropped} call(s) dropped, ${this.queue.length} waiting (receivers too slow)`);
      return;
    }
    this.queue.push({ hook, event, body });
  }

  /**
   * On shutdown: calls still waiting are dropped (logged), those in flight end within their timeout, so a
   * stop never waits for a long queue of slow receivers.
   */
  close(): Promise<void> {
    const dropped = this.queue.splice(0).length;
    if (dropped) this.opts.warn(`webhooks: stopping, ${dropped} waiting call(s) not sent`);
    return this.idle();
  }

  /** resolves when nothing is sending or waiting (tests) */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async run(job: Job): Promise<void> {
    try {
      await this.call(job);
    } finally {
      const next = this.queue.shift();
      if (next) void this.run(next);
      else if (--this.running === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private async call({ hook, event, body }: Job): Promise<void> {
    const what = `webhook ${hook.id} (${hook.name}) ${event} -> ${hook.url}`;
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        body,
        headers: { ...this.opts.defaultHeaders, ...hook.headers, 'X-Strapi-Event': event, 'Content-Type': 'application/json' },
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? TIMEOUT_MS),
      });
      if (res.ok) await res.body?.cancel();
      else this.opts.warn(`${what}: answered ${res.status} ${(await res.text()).slice(0, 200)}`);
    } catch (err) {
      const e = err as Error & { cause?: Error };
      this.opts.warn(`${what}: ${e.name === 'TimeoutError' ? `no answer within ${(this.opts.timeoutMs ?? TIMEOUT_MS) / 1000} s` : e.cause?.message ?? e.message}`);
    }
  }
}
