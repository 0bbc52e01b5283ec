// A bar chart of the ratios of one run, as a standalone SVG (no dependencies): Tessera's req/s divided
// by the floor's (target line at 0.8), and, when measured, divided by real Strapi's (log scale).
import type { RunSummary } from './report';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Panel {
  title: string;
  values: (number | undefined)[];
  log: boolean;
  target?: number;
  color: string;
}

export function ratioChart(s: RunSummary): string {
  const labels = s.cases.map((c) => c.title);
  const panels: Panel[] = [{ title: 'Tessera ÷ floor (req/s; target ≥ 0.8)', values: s.cases.map((c) => c.vsFloor), log: false, target: 0.8, color: '#3b6fb6' }];
  if (s.cases.some((c) => c.vsStrapi !== undefined)) {
    panels.push({ title: 'Tessera ÷ Strapi 4.26.2 (req/s, log scale)', values: s.cases.map((c) => c.vsStrapi), log: true, target: 1, color: '#d0772b' });
  }
  const labelW = 250, panelW = 330, rowH = 26, top = 58, gap = 30;
  const width = labelW + panels.length * (panelW + gap) + 10;
  const height = top + labels.length * rowH + 40;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="10" y="20" font-size="14" font-weight="bold">Tessera benchmark ${esc(s.date)} — ${s.settings.articles.toLocaleString('en-US')} articles, ${s.environment.cpus} cores</text>`);
  labels.forEach((l, i) => out.push(`<text x="${labelW - 8}" y="${top + i * rowH + 17}" text-anchor="end">${esc(l)}</text>`));
  panels.forEach((p, k) => {
    const x0 = labelW + k * (panelW + gap);
    const finite = p.values.filter((v): v is number => v !== undefined && Number.isFinite(v) && v > 0);
    const max = p.log ? Math.max(10, ...finite) * 1.2 : Math.max(1.2, ...finite) * 1.1;
    const min = p.log ? 0.5 : 0;
    const scale = (v: number) => (p.log ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) : (v - min) / (max - min)) * panelW;
    out.push(`<text x="${x0}" y="${top - 22}" font-weight="bold">${esc(p.title)}</text>`);
    out.push(`<line x1="${x0}" y1="${top - 4}" x2="${x0}" y2="${top + labels.length * rowH}" stroke="#888"/>`);
    const ticks = p.log ? [1, 10, 100, 1000].filter((t) => t <= max) : [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2].filter((t) => t <= max);
    for (const t of ticks) {
      const x = x0 + scale(Math.max(t, min));
      out.push(`<line x1="${x}" y1="${top - 4}" x2="${x}" y2="${top + labels.length * rowH}" stroke="#eee"/>`);
      out.push(`<text x="${x}" y="${top + labels.length * rowH + 14}" text-anchor="middle" fill="#555">${t}×</text>`);
    }
    p.values.forEach((v, i) => {
      const y = top + i * rowH + 4;
      if (v === undefined || !Number.isFinite(v)) {
        out.push(`<text x="${x0 + 6}" y="${y + 13}" fill="#999">n/a</text>`);
        return;
      }
      const w = Math.max(1, scale(Math.max(v, min)));
      out.push(`<rect x="${x0}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${p.color}"/>`);
      out.push(`<text x="${(x0 + w + 4).toFixed(1)}" y="${y + 13}">${v >= 10 ? v.toFixed(0) : v.toFixed(2)}×</text>`);
    });
    if (p.target !== undefined && p.target <= max) {
      const x = x0 + scale(p.target);
      out.push(`<line x1="${x}" y1="${top - 8}" x2="${x}" y2="${top + labels.length * rowH}" stroke="#c00" stroke-dasharray="4 3"/>`);
    }
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
