// A project that cannot start gets one clear line naming the file (and attribute), not a stack trace.
import { ModelError } from '../model/errors';
import { ProjectError } from '../project/errors';

export function describeStartupError(err: unknown): string {
  if (err instanceof ModelError || err instanceof ProjectError) return `tessera: cannot start: ${err.message}`;
  const e = err as Error;
  const detail = process.env.DEBUG ? `\n${e?.stack ?? ''}` : '';
  return `tessera: cannot start: ${e?.message ?? String(err)}${detail}`;
}
