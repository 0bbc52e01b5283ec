/** A project folder that cannot be loaded: always names the file and the underlying reason. */
export class ProjectError extends Error {
  constructor(
    message: string,
    /** absolute path of the offending file */
    readonly file?: string,
    /** the original error (require failure, JSON.parse failure, ...) */
    readonly cause?: unknown,
  ) {
    super(file ? `${file}: ${message}` : message);
    this.name = 'ProjectError';
  }
}

/** The message of anything thrown, for wrapping it. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
