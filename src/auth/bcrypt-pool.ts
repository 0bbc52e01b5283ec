// bcrypt off the event loop: hashing and comparing run in a few worker threads (bcryptjs in each), so a burst of
// sign-ins or registrations never stalls other requests. bcryptjs's own async API is no help here: it yields
// only every 100 ms, and a hash at 10 rounds takes less than that, so the loop stays blocked for whole hashes.
// The workers start on first use, keep the process alive only while they hold a job (an idle one never does)
// and leave after a minute without work; a worker that dies fails only the job it held, and the next job
// starts a new one.
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/** the worker's code: a string, so no bundler or test transform ever rewrites it */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
parentPort.on('message', ({ id, op, a, b }) => {
  try {
    parentPort.postMessage({ id, value: op === 'hash' ? bcrypt.hashSync(a, b) : bcrypt.compareSync(a, b) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

const IDLE_MS = 60_000;
/** leave one core to the event loop; a few workers are plenty for bcrypt */
const SIZE = Math.max(1, Math.min(4, (os.availableParallelism?.() ?? os.cpus().length) - 1));

interface Job {
  id: number;
  op: 'hash' | 'compare';
  a: string;
  b: string | number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  idle?: NodeJS.Timeout;
}

const slots: Slot[] = [];
const queue: Job[] = [];
let nextId = 1;

function startWorker(): Slot {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptjs: require.resolve('bcryptjs') } });
  const slot: Slot = { worker };
  worker.on('message', (msg: { id: number; value?: unknown; error?: string }) => {
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    slot.job = undefined;
    worker.unref();
    if (msg.error !== undefined) job.reject(new Error(msg.error));
    else job.resolve(msg.value);
    dispatch();
  });
  const gone = (err: Error) => {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    clearTimeout(slot.idle);
    slot.job?.reject(err);
    slot.job = undefined;
    dispatch();
  };
  worker.on('error', gone);
  worker.on('exit', (code) => gone(new Error(`bcrypt worker exited (code ${code})`)));
  // after the listeners: adding a 'message' listener refs the worker's port again
  worker.unref();
  slots.push(slot);
  return slot;
}

function dispatch(): void {
  while (queue.length) {
    let slot = slots.find((s) => !s.job);
    if (!slot && slots.length < SIZE) slot = startWorker();
    if (!slot) return;
    const job = queue.shift()!;
    clearTimeout(slot.idle);
    slot.idle = undefined;
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, op: job.op, a: job.a, b: job.b });
  }
  for (const slot of slots) {
    if (slot.job || slot.idle) continue;
    const idle = slot;
    idle.idle = setTimeout(() => {
      // out of the pool first, so no job is handed to a worker on its way out
      const i = slots.indexOf(idle);
      if (i < 0 || idle.job) return;
      slots.splice(i, 1);
      void idle.worker.terminate();
    }, IDLE_MS);
    idle.idle.unref();
  }
}

function run<T>(op: Job['op'], a: string, b: string | number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ id: nextId++, op, a, b, resolve: resolve as (v: unknown) => void, reject });
    dispatch();
  });
}

/** bcrypt hash of `plain` at `rounds`, computed in a worker thread */
export function bcryptHash(plain: string, rounds: number): Promise<string> {
  return run<string>('hash', plain, rounds);
}

/** whether `plain` matches the bcrypt `hash`, computed in a worker thread; rejects for a malformed hash */
export function bcryptCompare(plain: string, hash: string): Promise<boolean> {
  return run<boolean>('compare', plain, hash);
}
