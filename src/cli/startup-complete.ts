// bin/tessera.js tunes the process while `tessera start` starts (bin/load.js: the young generation held,
// a V8 code cache) and finishes that once the server listens: start.ts calls startupComplete() then.
// Without the bin (tests that call start() from the sources) there is nothing to do.

/** the hook bin/tessera.js installs */
export const STARTUP_COMPLETE = Symbol.for('tessera.startupComplete');

export function startupComplete(): void {
  const g = globalThis as { [STARTUP_COMPLETE]?: () => void };
  const hook = g[STARTUP_COMPLETE];
  delete g[STARTUP_COMPLETE];
  hook?.();
}
