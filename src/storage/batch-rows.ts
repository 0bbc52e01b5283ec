// Many rows in one INSERT. A statement holds at most MAX_ROWS rows and MAX_VARIABLES bound values
// (SQLite's default SQLITE_MAX_VARIABLE_NUMBER since 3.32; PostgreSQL allows 65535). Rows beyond a full
// statement go in statements of power-of-two sizes (300 rows: 256 + 32 + 8 + 4), so one column list has at
// most log2(MAX_ROWS) + 1 distinct SQL texts: the prepared-statement cache keeps them all, instead of one
// text per row count.
import type { Dialect } from './dialect';

export const MAX_VARIABLES = 32766;
export const MAX_ROWS = 256;

/** the largest power of two rows of `width` values that fit one statement */
function rowsPerStatement(width: number): number {
  const fit = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_VARIABLES / Math.max(1, width))));
  return 2 ** Math.floor(Math.log2(fit));
}

/** `items` cut into the statements of rows of `width` values each (see above) */
export function batches<T>(items: readonly T[], width: number): T[][] {
  const full = rowsPerStatement(width);
  const out: T[][] = [];
  let i = 0;
  for (; i + full <= items.length; i += full) out.push(items.slice(i, i + full));
  for (let size = full / 2; size >= 1; size /= 2) {
    if (i + size <= items.length) {
      out.push(items.slice(i, i + size));
      i += size;
    }
  }
  return out;
}

/** `(?, ?), (?, ?), ...`: `rows` rows of `width` placeholders, numbered from `first` (1-based) */
export function valuesList(dialect: Dialect, rows: number, width: number, first = 1): string {
  const out: string[] = [];
  let n = first;
  for (let r = 0; r < rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < width; c++) row.push(dialect.placeholder(n++));
    out.push(`(${row.join(', ')})`);
  }
  return out.join(', ');
}
