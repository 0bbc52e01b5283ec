// Packages that reads never need (sharp for image uploads, jose for JWTs, nodemailer for email) are
// loaded on first use instead of at start-up: together they cost ~40 ms of start time and ~14 MB of
// resident memory in every process (bench/README.md, finding 6). A package that cannot be loaded fails
// with an error naming it and what needed it, on every use, rather than with a bare MODULE_NOT_FOUND.

export class ModuleLoadError extends Error {
  override name = 'ModuleLoadError';
}

/**
 * `load` (a `require` of the package, so bundlers and types see the name) runs on the first call of
 * the returned function; later calls return the same module.
 */
export function lazyModule<T>(name: string, neededFor: string, load: () => T): () => T {
  let mod: T | undefined;
  return () => {
    if (mod === undefined) {
      try {
        mod = load();
      } catch (err) {
        throw new ModuleLoadError(`${neededFor} needs the package "${name}", which could not be loaded: ${(err as Error)?.message ?? String(err)}`, { cause: err });
      }
    }
    return mod;
  };
}
