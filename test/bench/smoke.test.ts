// CI smoke of the benchmark runner (issue 8): a short run on a small generated dataset must produce the
// table, the JSON, the markdown page and the chart, with the floor answering exactly as Tessera does
// (REST; the GraphQL cases have no floor and must answer without errors). The default cases and the scale
// group (issue 22: `--cases scale`, the same cases at 10k, 100k and 1M articles) in one run, as `--size`.
// No figures are asserted (targets live in the benchmark, never in tests), and real Strapi is not needed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CASE_GROUPS, CASES } from '../../bench/cases';
import { parseOptions, runBenchmark } from '../../bench/run';
import type { RunSummary } from '../../bench/lib/report';

describe('bench runner smoke', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-smoke-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs every case on Tessera and both floors and writes the JSON, markdown and chart', async () => {
    const logs: string[] = [];
    const options = parseOptions(['--smoke', '--size', '200', '--cases', 'default,scale', '--out', path.join(dir, 'results'), '--cache', path.join(dir, 'cache')], (m) => logs.push(m));
    const { summary, files } = await runBenchmark(options);

    const json = JSON.parse(fs.readFileSync(files.json, 'utf8')) as RunSummary;
    expect(json.cases.map((c) => c.id)).toEqual([
      'list', 'populate', 'search', 'findone', 'deep-filter', 'page-200', 'create', 'update-connect', 'gql-list', 'gql-components', 'gql-findone', 'gql-create',
      'last-page', 'search-recent', 'category-author', 'findone-all', 'create-links', 'mixed',
    ]);
    expect(CASE_GROUPS.scale).toEqual(['list', 'populate', 'last-page', 'search-recent', 'category-author', 'findone-all', 'create-links', 'mixed']);
    // results of a size other than 10k are named by it: the three sizes of the scale table never overwrite each other
    expect(path.basename(files.json)).toMatch(/^\d{4}-\d\d-\d\d-200\.json$/);
    for (const c of json.cases) {
      const t = c.servers.tessera;
      expect(t, c.id).toBeDefined();
      expect(t!.rps, c.id).toBeGreaterThan(0);
      expect(t!.non2xx + t!.errors + t!.failed, `${c.id}: failed requests`).toBe(0);
      expect(c.statements.tessera?.statuses, c.id).toEqual([200]);
      // a GraphQL failure is often a 200 with `errors`
      expect(c.statements.tessera?.failures, `${c.id}: failed answers`).toBeUndefined();
      if (c.graphql) {
        // the floor has no GraphQL: not run, not a ratio
        expect(c.servers['floor-sql'] ?? c.servers['floor-js'], c.id).toBeUndefined();
        expect(c.vsFloor, c.id).toBeUndefined();
      } else if (c.kind === 'read' && CASES.find((k) => k.id === c.id)!.floor) {
        // the floor must answer exactly as Tessera does, or the comparison would be meaningless
        expect(c.answers['floor-sql'], `${c.id}: floor-sql answers`).toBe('same');
        expect(c.answers['floor-js'], `${c.id}: floor-js answers`).toBe('same');
        expect(c.floor, c.id).toMatch(/^floor-(js|sql)$/);
        expect(c.vsFloor, c.id).toBeGreaterThan(0);
      }
      // every case reports req/s, p99 and SQL statements per request
      expect(t!.p99, c.id).toBeGreaterThanOrEqual(0);
      expect(c.statements.tessera?.perRequest, c.id).toBeGreaterThanOrEqual(0);
      expect(c.statements['tessera-nocache']?.perRequest, c.id).toBeGreaterThan(0);
    }
    // every read case's request finds entries (a last page past the end, a word no title has, would measure nothing)
    expect(json.notes.filter((n) => /no entries/.test(n))).toEqual([]);
    expect(json.targets).toHaveLength(6);
    // statements per request must not grow with the rows, for the GraphQL list too
    const gqlRows = json.statementsVsRows.find((r) => r.url.includes('graphql'));
    expect(Object.keys(gqlRows?.perPageSize ?? {})).toEqual(['1', '10', '25', '100']);
    expect(new Set(Object.values(gqlRows!.perPageSize)).size).toBe(1);
    expect(json.coldStart.some((c) => c.server === 'tessera' && c.dataset === 'fixture app')).toBe(true);
    expect(json.memory.idleMb.tessera).toBeGreaterThan(0);

    const md = fs.readFileSync(files.md, 'utf8');
    expect(md).toContain('## Targets');
    expect(md).toContain('| tessera |');
    expect(fs.readFileSync(files.svg, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/);
    expect(logs.join('\n')).toContain('list, populate=*');
    expect(summary.notes.join(' ')).toContain('GraphQL cases');
  }, 300_000);
});
