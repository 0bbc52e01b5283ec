// The performance targets, evaluated on one run's results.
import type { RunSummary, Target } from './report';
import type { ServerName } from './servers';

export function evaluateTargets(s: Omit<RunSummary, 'targets'>): Target[] {
  const byId = new Map(s.cases.map((c) => [c.id, c]));
  const ratio = (id: string): Target => {
    const c = byId.get(id);
    return { name: `${c?.title ?? id} vs the floor`, want: '≥ 0.8×', got: c?.vsFloor !== undefined ? `${c.vsFloor.toFixed(2)}×` : 'not measured', met: c?.vsFloor !== undefined ? c.vsFloor >= 0.8 : null };
  };
  const p99s = s.cases.filter((c) => c.p99VsFloor !== undefined);
  const worst = p99s.sort((a, b) => b.p99VsFloor! - a.p99VsFloor!)[0];
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
      name: 'p99 vs the floor (every read case)', want: '≤ 2×',
      got: worst ? `worst ${worst.p99VsFloor!.toFixed(2)}× (${worst.title})` : 'not measured',
      met: worst ? worst.p99VsFloor! <= 2 : null,
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
