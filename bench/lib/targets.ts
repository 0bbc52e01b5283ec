// The issues' performance targets, evaluated on one run's results: issue 8's (the read path against the
// floor, memory, cold start) and issue 17's for the response cache's hits.
import { tesseraVariants, type CaseResult, type Ratios, type RunSummary, type Target } from './report';
import type { ServerName } from './servers';

type RunPart = Omit<RunSummary, 'targets'>;

/**
 * The Tessera whose ratios issue 8's targets read: the one without the response cache when there is one (the
 * floor keeps no answers, so a cache hit says nothing of the read path); else the run's only Tessera.
 */
function readPathTessera(s: RunPart): { label: string; ratios(c: CaseResult): Ratios } {
  const variants = tesseraVariants(s);
  return variants.find((v) => v.name === 'tessera-nocache') ?? variants[0];
}

export function evaluateTargets(s: RunPart): Target[] {
  const byId = new Map(s.cases.map((c) => [c.id, c]));
  const t = readPathTessera(s);
  const who = s.settings.responseCache === undefined ? '' : ` (${t.label})`;
  const ratio = (id: string): Target => {
    const c = byId.get(id);
    const r = c ? t.ratios(c).vsFloor : undefined;
    return { name: `${c?.title ?? id} vs the floor${who}`, want: '≥ 0.8×', got: r !== undefined ? `${r.toFixed(2)}×` : 'not measured', met: r !== undefined ? r >= 0.8 : null };
  };
  const p99s = s.cases.map((c) => ({ c, r: t.ratios(c).p99VsFloor })).filter((x): x is { c: CaseResult; r: number } => x.r !== undefined);
  const worst = p99s.sort((a, b) => b.r - a.r)[0];
  const idleT = s.memory.idleMb.tessera, idleS = s.memory.idleMb.strapi;
  const cold = (server: ServerName) => {
    const e = s.coldStart.find((c) => c.server === server && c.dataset === 'fixture app');
    return e ? Math.min(...e.ms) : undefined;
  };
  const coldT = cold('tessera'), coldS = cold('strapi');
  const rowsIndependent = s.statementsVsRows.every((r) => new Set(Object.values(r.perPageSize)).size === 1);
  return [
    ratio('list'),
    ratio('populate'),
    {
      name: `p99 vs the floor (every read case)${who}`, want: '≤ 2×',
      got: worst ? `worst ${worst.r.toFixed(2)}× (${worst.c.title})` : 'not measured',
      met: worst ? worst.r <= 2 : null,
    },
    {
      name: 'idle RSS vs real Strapi', want: '≤ 1/3',
      got: idleT !== undefined && idleS !== undefined ? `${Math.round(idleT)} / ${Math.round(idleS)} MB = ${(idleT / idleS).toFixed(2)}` : idleT !== undefined ? `Tessera ${Math.round(idleT)} MB; Strapi not measured` : 'not measured',
      met: idleT !== undefined && idleS !== undefined ? idleT / idleS <= 1 / 3 : null,
    },
    {
      name: 'cold start on the fixture app vs real Strapi', want: '≤ 1/10',
      got: coldT !== undefined && coldS !== undefined ? `${Math.round(coldT)} / ${Math.round(coldS)} ms = ${(coldT / coldS).toFixed(3)}` : coldT !== undefined ? `Tessera ${Math.round(coldT)} ms; Strapi not measured` : 'not measured',
      met: coldT !== undefined && coldS !== undefined ? coldT / coldS <= 0.1 : null,
    },
    {
      name: 'SQL statements per request independent of rows returned', want: 'same count for pageSize 1…100',
      got: s.statementsVsRows.map((r) => `${r.url.replace('/api/articles', '') || 'list'}: ${[...new Set(Object.values(r.perPageSize))].join('/')}`).join('; '),
      met: s.statementsVsRows.length ? rowsIndependent : null,
    },
  ];
}

/** issue 17: list and populate=* cache hits ≥ 40× real Strapi and ≥ 0.8× bare node:http; none when the cache was off */
export function evaluateCacheTargets(s: RunPart): Target[] {
  if (s.settings.responseCache === 'off') return [];
  const out: Target[] = [];
  for (const id of ['list', 'populate']) {
    const c = s.cases.find((k) => k.id === id);
    const name = c?.title ?? id;
    out.push({ name: `${name}: Tessera (cache) vs real Strapi`, want: '≥ 40×', got: c?.vsStrapi === undefined ? 'not measured' : Number.isFinite(c.vsStrapi) ? `${c.vsStrapi.toFixed(1)}×` : 'real Strapi answered nothing within the run', met: c?.vsStrapi !== undefined ? c.vsStrapi >= 40 : null });
    out.push({ name: `${name}: Tessera (cache) vs bare node:http`, want: '≥ 0.8×', got: c?.vsBare !== undefined ? `${c.vsBare.toFixed(2)}×` : 'not measured', met: c?.vsBare !== undefined ? c.vsBare >= 0.8 : null });
  }
  return out;
}
