// Collects parameters and hands out table aliases while one statement is being compiled.
import type { Dialect, SqlValue } from './dialect';

export class SqlBuilder {
  readonly params: SqlValue[] = [];
  private aliases = 0;
  constructor(readonly dialect: Dialect) {}
  /** bind a value; returns its placeholder */
  param(v: SqlValue): string {
    this.params.push(v);
    return this.dialect.placeholder(this.params.length);
  }
  list(values: readonly (number | string)[]): string {
    return this.param(this.dialect.listValue(values));
  }
  alias(): string {
    return `t${++this.aliases}`;
  }
  q(identifier: string): string {
    return this.dialect.quote(identifier);
  }
}
