// Dataset sizes as people write them: `10k`, `100k`, `1m` (or `1M`), `10000`, `1_000_000`.

export function parseSize(text: string): number {
  const m = /^(\d+(?:_\d{3})*|\d*\.\d+)([km]?)$/i.exec(text.trim());
  // a decimal point only before k or m: 10.000 is no size
  const n = m && !(m[1].includes('.') && !m[2]) ? Number(m[1].replace(/_/g, '')) * { '': 1, k: 1_000, m: 1_000_000 }[m[2].toLowerCase() as '' | 'k' | 'm'] : NaN;
  if (!Number.isInteger(n) || n < 1) throw new Error(`not a dataset size: "${text}" (write 10k, 100k, 1m or a number of articles)`);
  return n;
}

/** 10000 -> `10k`, 1000000 -> `1m`, 2500 -> `2500` */
export function sizeLabel(n: number): string {
  if (n % 1_000_000 === 0) return `${n / 1_000_000}m`;
  if (n % 1_000 === 0) return `${n / 1_000}k`;
  return String(n);
}
