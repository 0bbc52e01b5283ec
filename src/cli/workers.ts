// `tessera start --workers N`: N server processes (node:cluster) sharing one port, on SQLite or PostgreSQL.
// The primary serves nothing: it forks the workers, restarts one that dies, and stops them all on
// SIGTERM/SIGINT. Each worker is a plain `tessera start` (cli/start.ts) and tells the primary when it listens.
//
// The first worker starts alone, the others once it listens. Its start does every first-start write once
// (schema sync, users-permissions roles and permissions, the i18n default locale, plugin store settings, a
// JWT_SECRET generated into .env, whatever the project's bootstrap seeds), so the others find it all done and
// nothing collides: on SQLite two processes creating tables at once would, and the roles check-then-insert
// would double on either database. The cost is one start's time more than starting all at once.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { createLogger } from '../core/logger';
import { startupComplete } from './startup-complete';

/** a worker that exits before it listens this many times in a row (after the first start) ends the primary */
const MAX_FAILED_STARTS = 5;
/** restart delays: doubled for each unexpected exit within the last minute, from RESTART_MIN_MS up to RESTART_MAX_MS */
const RESTART_MIN_MS = 250;
const RESTART_MAX_MS = 30_000;
const CRASH_WINDOW_MS = 60_000;

/** `--workers` as given: 1 when absent; an error message when it is not a positive integer */
export function workerCount(value: string | true | undefined): number | string {
  if (value === undefined) return 1;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : `--workers takes a positive number of processes (got ${value === true ? 'nothing' : JSON.stringify(value)})`;
}

/** true in a process the primary forked */
export const isWorker = (): boolean => cluster.isWorker;

/** a worker that stopped serving (or could not start): its channel to the primary would keep it alive */
export function leaveCluster(): void {
  if (cluster.isWorker && process.connected) cluster.worker?.disconnect();
}

interface Slot {
  worker: Worker;
  ready: boolean;
}

/**
 * The primary of `tessera start --workers n` (n >= 2): resolves with the exit code once every worker has
 * stopped (0 after SIGTERM/SIGINT, 1 when the workers cannot start).
 */
export function runPrimary(dir: string, n: number, log: Logger = createLogger()): Promise<number> {
  startupComplete(); // the primary holds no project: nothing to keep young
  return new Promise((resolve) => {
    const slots = new Set<Slot>();
    const crashes: number[] = [];
    let phase: 'starting' | 'serving' | 'stopping' = 'starting';
    let exitCode = 0;
    let failedStarts = 0;
    let url = '';
    const pending = new Set<NodeJS.Timeout>();

    const finishIfDone = () => {
      if (phase === 'stopping' && slots.size === 0 && pending.size === 0) resolve(exitCode);
    };
    /** `why` is logged as an error when the primary gives up (code 1) */
    const stopAll = (code: number, why: string) => {
      if (phase === 'stopping') {
        // a second signal: do not wait for requests in flight
        log.warn(`${why}: killing ${slots.size} worker(s)`);
        for (const s of slots) s.worker.process.kill('SIGKILL');
        return;
      }
      phase = 'stopping';
      exitCode = code;
      for (const t of pending) clearTimeout(t);
      pending.clear();
      log[code === 0 ? 'info' : 'error'](`${why}: stopping ${slots.size} worker(s)`);
      for (const s of slots) s.worker.process.kill('SIGTERM');
      finishIfDone();
    };

    const fork = (): Slot => {
      const slot: Slot = { worker: cluster.fork(), ready: false };
      slots.add(slot);
      slot.worker.on('message', (m: unknown) => {
        if (m === 'reload') process.send?.('reload'); // strapi.reload() under `tessera develop`
        const readyUrl = (m as { ready?: unknown } | null)?.ready;
        if (typeof readyUrl === 'string' && !slot.ready) onReady(slot, readyUrl);
      });
      slot.worker.on('exit', (code, signal) => onExit(slot, code, signal));
      return slot;
    };

    const onReady = (slot: Slot, readyUrl: string) => {
      slot.ready = true;
      url ||= readyUrl;
      if (phase === 'stopping') return;
      if (phase === 'serving') {
        failedStarts = 0;
        log.info(`worker ${slot.worker.process.pid} serving`);
        return;
      }
      if (slots.size === 1) {
        // the first one made the database ready: the others start together
        for (let i = 1; i < n; i++) fork();
      }
      if (slots.size === n && [...slots].every((s) => s.ready)) {
        phase = 'serving';
        log.info(`${n} workers serving ${dir} at ${url} (pids ${[...slots].map((s) => s.worker.process.pid).join(', ')}; primary ${process.pid})`);
      }
    };

    const onExit = (slot: Slot, code: number | null, signal: string | null) => {
      slots.delete(slot);
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (phase === 'stopping') return finishIfDone();
      if (phase === 'starting') return stopAll(1, `worker ${slot.worker.process.pid} exited (${how}) while starting`);
      if (!slot.ready && ++failedStarts >= MAX_FAILED_STARTS) {
        return stopAll(1, `${failedStarts} restarted workers in a row exited before they served; giving up`);
      }
      const now = Date.now();
      crashes.push(now);
      while (crashes.length && crashes[0] < now - CRASH_WINDOW_MS) crashes.shift();
      const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (crashes.length - 1));
      log.error(`worker ${slot.worker.process.pid} exited unexpectedly (${how}); starting another in ${delay} ms`);
      const t = setTimeout(() => {
        pending.delete(t);
        if (phase === 'serving') fork();
      }, delay);
      pending.add(t);
    };

    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stopAll(exitCode, signal));
    fork();
  });
}
