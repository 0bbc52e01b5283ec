// v4's `strapi.requestContext`: the koa-like ctx of the request the calling code runs for, from anywhere
// below it (controllers, services, policies, middlewares, model lifecycle hooks), through every await. One
// AsyncLocalStorage for the process, as v4 has it: each request runs in its own store, so concurrent
// requests (and several instances in one process) never see each other's ctx. Outside a request
// (register, bootstrap, cron tasks, timers started at start-up) `get()` answers undefined.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from './context';

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  /** runs `cb` with `store` as the current request's ctx (the server calls it once per request) */
  async run<T>(store: RequestContext, cb: () => T | Promise<T>): Promise<T> {
    return storage.run(store, cb);
  },
  get(): RequestContext | undefined {
    return storage.getStore();
  },
};

/** runs `fn` outside any request: timers it starts (cron schedules) never carry a request's ctx */
export function outsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}
