// v4's `strapi.cron` (services/cron.js, on node-schedule as v4): `add(tasks)` takes `{ name: { task, options } }`
// or `{ rule: fn }`, `remove(name)`, `start()`, `stop()`, `destroy()`, `jobs` (the `{ job, options, name }`
// entries, one array for the service's life). config/server.js `cron.tasks` is added at start when
// `cron.enabled` (core/tessera.ts). Each task runs as `task({ strapi }, fireDate)`, as v4 calls it.
//
// Unlike v4: a tick runs on one process only when several serve one database (core/cron-lock.ts); a task
// that throws or rejects is logged and the server goes on (in v4 the job's unhandled `error` event can end
// the process); a task never runs inside the request or transaction that added it; `destroy()` waits for
// the runs in flight (at most DESTROY_WAIT_MS) so they finish before the database closes.
import type { Job, Spec } from 'node-schedule';
import { lazyModule } from '../lazy-module';
import { outsideRequest } from '../rest/request-scope';
import { outsideTransactionScope } from '../storage/lifecycles';
import type { CronLock } from './cron-lock';

type TaskFn = (this: unknown, deps: { strapi: unknown }, fireDate: Date) => unknown;
type TaskValue = TaskFn | { task?: TaskFn; options?: Spec };

export interface CronJobSpec {
  job: Job;
  options: Spec;
  name: string | null;
}

export interface CronDeps {
  strapi(): unknown;
  lock: CronLock;
  error(err: unknown, message: string): void;
  warn(message: string): void;
}

const DESTROY_WAIT_MS = 10_000;
const nodeSchedule = lazyModule('node-schedule', 'cron tasks (config/server.js cron)', () => require('node-schedule') as typeof import('node-schedule'));

export function createCron(d: CronDeps) {
  const jobs: CronJobSpec[] = [];
  const lockKeys = new WeakMap<CronJobSpec, string>();
  const inFlight = new Set<Promise<void>>();
  let running = false;

  /** the key a tick is claimed under: the name (else the rule), numbered when several jobs share it */
  const lockKeyOf = (name: string | null, options: Spec): string => {
    const base = name ?? (typeof options === 'string' ? options : JSON.stringify(options));
    const same = jobs.filter((s) => (lockKeys.get(s) ?? '').replace(/#\d+$/, '') === base).length;
    return `${base}#${same}`;
  };
  const schedule = (spec: CronJobSpec): void => {
    // outside the request or transaction that called add(): the timers node-schedule starts now carry neither
    const ok = outsideTransactionScope(() => outsideRequest(() => spec.job.schedule(spec.options)));
    if (!ok) d.warn(`cron: the job ${JSON.stringify(spec.name ?? spec.options)} was not scheduled: its rule never fires or is not valid`);
  };

  const cron = {
    add(tasks: Record<string, TaskValue> = {}) {
      for (const key of Object.keys(tasks)) {
        const value = tasks[key];
        let fn: (deps: { strapi: unknown }, fireDate: Date) => unknown;
        let options: Spec;
        let name: string | null;
        if (typeof value === 'function') {
          name = null;
          fn = value.bind(tasks);
          options = key;
        } else if (value && typeof value.task === 'function') {
          name = key;
          fn = value.task.bind(value);
          options = value.options as Spec;
        } else {
          throw new Error(`Could not schedule a cron job for "${key}": no function found.`);
        }
        const lockKey = lockKeyOf(name, options);
        const run = async (fireDate: Date): Promise<void> => {
          if (!(await d.lock.claim(lockKey, fireDate))) return;
          await fn({ strapi: d.strapi() }, fireDate);
        };
        const job = new (nodeSchedule().Job)((fireDate: Date) => {
          const p = run(fireDate).catch((err) => d.error(err, `cron: the job ${JSON.stringify(name ?? options)} failed`));
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p));
          return p;
        });
        const spec: CronJobSpec = { job, options, name };
        lockKeys.set(spec, lockKey);
        jobs.push(spec);
        if (running) schedule(spec);
      }
      return cron;
    },
    remove(name: string) {
      if (!name) throw new Error('You must provide a name to remove a cron job.');
      for (let i = jobs.length - 1; i >= 0; i--) {
        if (jobs[i].name === name) {
          jobs[i].job.cancel();
          jobs.splice(i, 1);
        }
      }
      return cron;
    },
    start() {
      for (const spec of jobs) schedule(spec);
      running = true;
      return cron;
    },
    stop() {
      for (const spec of jobs) spec.job.cancel();
      running = false;
      return cron;
    },
    /** stops every job and waits for the runs in flight (bounded) */
    async destroy(): Promise<void> {
      cron.stop();
      jobs.length = 0;
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          d.warn(`cron: ${inFlight.size} task run(s) still going after ${DESTROY_WAIT_MS} ms; closing anyway`);
          resolve();
        }, DESTROY_WAIT_MS);
      });
      await Promise.race([Promise.allSettled([...inFlight]), timeout]);
      clearTimeout(timer);
    },
    jobs,
  };
  return cron;
}

export type Cron = ReturnType<typeof createCron>;
