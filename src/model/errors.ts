/** A project that cannot be served: names the file and, where there is one, the attribute. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly attribute?: string,
  ) {
    super([file, attribute && `attribute "${attribute}"`, message].filter(Boolean).join(': '));
    this.name = 'ModelError';
  }
}
