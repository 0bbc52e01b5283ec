// A bar chart of the ratios of one run, as a standalone SVG (no dependencies): Tessera's req/s divided by the
// floor's (target line at 0.8), by bare node:http's (the limit; target 0.8), and, when measured, by real
// Strapi's (log scale). With --response-cache both, each panel has a bar per Tessera (cache, no cache).
import { tesseraVariants, type Ratios, type RunSummary } from './report';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Series {
  label: string;
  values: (number | undefined)[];
  color: string;
}

interface Panel {
  title: string;
  series: Series[];
  log: boolean;
  target?: number;
}

/** bar colours of the Tessera variants (cache, no cache), per panel */
const COLORS: Record<string, [string, string]> = { floor: ['#3b6fb6', '#9bb7de'], bare: ['#4a9a5b', '#a5d3ae'], strapi: ['#d0772b', '#eab68a'] };

export function ratioChart(s: RunSummary): string {
  const labels = s.cases.map((c) => c.title);
  const variants = tesseraVariants(s);
  const series = (kind: keyof typeof COLORS, pick: (r: Ratios) => number | undefined): Series[] =>
    variants.map((v, i) => ({ label: v.label, values: s.cases.map((c) => pick(v.ratios(c))), color: COLORS[kind][i] }));
  const panels: Panel[] = [{ title: 'Tessera ÷ floor (req/s; target ≥ 0.8)', series: series('floor', (r) => r.vsFloor), log: false, target: 0.8 }];
  if (s.cases.some((c) => c.vsBare !== undefined || c.noCache?.vsBare !== undefined)) {
    panels.push({ title: 'Tessera ÷ bare node:http (req/s; target ≥ 0.8)', series: series('bare', (r) => r.vsBare), log: false, target: 0.8 });
  }
  if (s.cases.some((c) => c.vsStrapi !== undefined || c.noCache?.vsStrapi !== undefined)) {
    panels.push({ title: 'Tessera ÷ Strapi 4.26.2 (req/s, log scale)', series: series('strapi', (r) => r.vsStrapi), log: true, target: 1 });
  }
  const labelW = 250, panelW = 330, barH = 18, rowGap = 8, gap = 30;
  const rowH = variants.length * barH + rowGap;
  const legendH = variants.length > 1 ? 18 : 0;
  const top = 58 + legendH;
  const width = labelW + panels.length * (panelW + gap) + 10;
  const height = top + labels.length * rowH + 40;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="10" y="20" font-size="14" font-weight="bold">Tessera benchmark ${esc(s.date)} — ${s.settings.articles.toLocaleString('en-US')} articles, ${s.environment.cpus} cores</text>`);
  if (variants.length > 1) {
    // in every panel the darker bar is the first variant, the lighter the second
    variants.forEach((v, i) => {
      const x = 10 + i * 170;
      out.push(`<rect x="${x}" y="30" width="12" height="12" fill="${COLORS.floor[i]}"/><text x="${x + 16}" y="40">${esc(v.label)}${i ? ' (lighter bars)' : ' (darker bars)'}</text>`);
    });
  }
  labels.forEach((l, i) => out.push(`<text x="${labelW - 8}" y="${top + i * rowH + rowH / 2 + 1}" text-anchor="end">${esc(l)}</text>`));
  panels.forEach((p, k) => {
    const x0 = labelW + k * (panelW + gap);
    const finite = p.series.flatMap((x) => x.values).filter((v): v is number => v !== undefined && Number.isFinite(v) && v > 0);
    const max = p.log ? Math.max(10, ...finite) * 1.2 : Math.max(1.2, ...finite) * 1.1;
    const min = p.log ? 0.5 : 0;
    const scale = (v: number) => (p.log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : (v - min) / (max - min)) * panelW;
    out.push(`<text x="${x0}" y="${top - 22}" font-weight="bold">${esc(p.title)}</text>`);
    out.push(`<line x1="${x0}" y1="${top - 4}" x2="${x0}" y2="${top + labels.length * rowH}" stroke="#888"/>`);
    const ticks = p.log ? [1, 10, 100, 1000].filter((t) => t <= max) : [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 5, 10, 20, 50].filter((t) => t <= max);
    for (const t of ticks) {
      const x = x0 + scale(Math.max(t, min));
      out.push(`<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${top + labels.length * rowH}" stroke="#eee"/>`);
      out.push(`<text x="${x}" y="${top + labels.length * rowH + 14}" text-anchor="middle" fill="#555">${t}×</text>`);
    }
    labels.forEach((_, i) => {
      p.series.forEach((ser, j) => {
        const v = ser.values[i];
        const y = top + i * rowH + j * barH + rowGap / 2;
        if (v === undefined || !Number.isFinite(v)) {
          out.push(`<text x="${x0 + 6}" y="${y + 13}" fill="#999">n/a</text>`);
          return;
        }
        const w = Math.max(1, scale(Math.max(v, min)));
        out.push(`<rect x="${x0}" y="${y}" width="${w.toFixed(1)}" height="${barH - 3}" fill="${ser.color}"><title>${esc(ser.label)}</title></rect>`);
        out.push(`<text x="${(x0 + w + 4).toFixed(1)}" y="${y + 12}">${v >= 10 ? v.toFixed(0) : v.toFixed(2)}×</text>`);
      });
    });
    if (p.target !== undefined && p.target <= max) {
      const x = x0 + scale(p.target);
      out.push(`<line x1="${x}" y1="${top - 8}" x2="${x}" y2="${top + labels.length * rowH}" stroke="#c00" stroke-dasharray="4 3"/>`);
    }
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
