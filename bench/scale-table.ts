// Issue 22's table from the runs of `--cases scale` at several sizes: per case and size, req/s of Tessera (cache),
// Tessera (no cache) and real Strapi, Tessera's p99 and SQL statements per request, and the ratios the issue's
// acceptance reads (× Strapi at each size; how far each falls from its figure at the smallest size).
//
//   npx tsx bench/scale-table.ts bench/results/scale/<date>.json bench/results/scale/<date>-100k.json bench/results/scale/<date>-1m.json
import fs from 'node:fs';
import { fmt, type CaseResult, type RunSummary } from './lib/report';
import { sizeLabel } from './lib/size';

const cell = (c: CaseResult | undefined, name: 'tessera' | 'tessera-nocache' | 'strapi') => fmt.int(c?.servers[name]?.rps);

function main(files: string[]): void {
  if (!files.length) throw new Error('usage: scale-table.ts <run>.json ... (the runs of --cases scale, one per size)');
  const runs = files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as RunSummary).sort((a, b) => a.settings.articles - b.settings.articles);
  const sizes = runs.map((r) => sizeLabel(r.settings.articles));
  const ids = [...new Set(runs.flatMap((r) => r.cases.map((c) => c.id)))];
  const caseOf = (r: RunSummary, id: string) => r.cases.find((c) => c.id === id);
  const lines: string[] = [];
  lines.push(`req/s, Tessera (cache) / Tessera (no cache) / real Strapi 4.26.2, per size; the mixed case counts reads and writes together.`, '');
  lines.push(`| case | ${sizes.join(' | ')} | × Strapi (cache / no cache) at ${sizes.at(-1)} | req/s at ${sizes[0]} ÷ at ${sizes.at(-1)} (cache / no cache) |`);
  lines.push(`|---|${sizes.map(() => '---').join('|')}|---|---|`);
  for (const id of ids) {
    const first = caseOf(runs[0], id);
    const last = caseOf(runs[runs.length - 1], id);
    const ratio = (a?: number, b?: number) => (a && b ? fmt.ratio(a / b) : '–');
    const title = (first ?? last)?.title ?? id;
    lines.push(`| ${title} | ${runs.map((r) => { const c = caseOf(r, id); return `${cell(c, 'tessera')} / ${cell(c, 'tessera-nocache')} / ${cell(c, 'strapi')}`; }).join(' | ')} | ${ratio(last?.servers.tessera?.rps, last?.servers.strapi?.rps)} / ${ratio(last?.servers['tessera-nocache']?.rps, last?.servers.strapi?.rps)} | ${ratio(first?.servers.tessera?.rps, last?.servers.tessera?.rps)} / ${ratio(first?.servers['tessera-nocache']?.rps, last?.servers['tessera-nocache']?.rps)} |`);
  }
  lines.push('', `p99 ms, Tessera (cache) / Tessera (no cache) / real Strapi; SQL statements per request of Tessera (no cache).`, '');
  lines.push(`| case | ${sizes.map((s) => `p99 ${s}`).join(' | ')} | ${sizes.map((s) => `SQL/req ${s}`).join(' | ')} |`);
  lines.push(`|---|${sizes.map(() => '---').join('|')}|${sizes.map(() => '---').join('|')}|`);
  for (const id of ids) {
    const sql = (c?: CaseResult) => {
      const d = c?.statements['tessera-nocache']?.distinct ?? c?.statements.tessera?.distinct;
      return d?.length ? (d.length > 1 ? `${d[0]}–${d[d.length - 1]}` : String(d[0])) : '–';
    };
    lines.push(`| ${(caseOf(runs[0], id) ?? caseOf(runs[runs.length - 1], id))?.title ?? id} | ${runs.map((r) => { const c = caseOf(r, id); return [c?.servers.tessera, c?.servers['tessera-nocache'], c?.servers.strapi].map((s) => fmt.ms(s?.p99)).join(' / '); }).join(' | ')} | ${runs.map((r) => sql(caseOf(r, id))).join(' | ')} |`);
  }
  lines.push('', ...runs.map((r) => `- ${sizeLabel(r.settings.articles)}: \`${r.command}\`, ${r.date}; load average ${r.environment.loadavgStart[0].toFixed(2)} at the start, ${r.environment.loadavgEnd[0].toFixed(2)} at the end; Tessera: ${r.environment.tessera}.`));
  console.log(lines.join('\n'));
}

main(process.argv.slice(2));
