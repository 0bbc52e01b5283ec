// Replays a request list against Tessera and compares with real Strapi 4.26.2's recorded answers,
// using the shared differential tool (../shared/tools/strapi-diff.mjs --golden).
//
// test/golden/<name>.requests.json      the requests (strapi-diff format)
// test/golden/<name>.golden.jsonl       Strapi 4.26.2's answers, recorded with strapi-diff --record
// test/golden/<name>.deviations.json    optional: the differences we keep on purpose, each listed in
//                                       docs/compatibility.md: { "<request name>": { "paths": [".error.details"], "why": "..." } }
//                                       A path matches a differing path equal to it or below it ("status" for the status).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SHARED } from './fixture-model';

const GOLDEN_DIR = path.resolve(__dirname, '../golden');

export function replayGolden(name: string, url: string, token: string): Promise<{ code: number; output: string }> {
  const args = [
    path.join(SHARED, 'tools/strapi-diff.mjs'), '--golden', path.join(GOLDEN_DIR, `${name}.golden.jsonl`),
    '--b', url, '--token-b', token, '--verbose', path.join(GOLDEN_DIR, `${name}.requests.json`),
  ];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

export interface GoldenDiff {
  request: string;
  /** differing paths as strapi-diff prints them: `status`, `.data[0].id`, `$` */
  paths: string[];
  lines: string[];
}

/** The DIFF blocks of a verbose strapi-diff run. */
export function parseDiffOutput(output: string): { same: number; different: number; diffs: GoldenDiff[] } {
  const diffs: GoldenDiff[] = [];
  let current: GoldenDiff | null = null;
  for (const line of output.split('\n')) {
    const head = /^DIFF {2}(.*)$/.exec(line);
    if (head) {
      current = { request: head[1], paths: [], lines: [] };
      diffs.push(current);
      continue;
    }
    if (current && line.startsWith('      ')) {
      const text = line.trim();
      current.lines.push(text);
      // one path per line, kept aligned with the lines; a top-level array's length has the empty path
      current.paths.push(/^([^:]*):/.exec(text)?.[1] ?? '');
      continue;
    }
    current = null;
  }
  const total = /(\d+) same, (\d+) different/.exec(output);
  return { same: total ? Number(total[1]) : 0, different: total ? Number(total[2]) : -1, diffs };
}

type Deviations = Record<string, { paths: string[]; why: string }>;

function loadDeviations(name: string): Deviations {
  const file = path.join(GOLDEN_DIR, `${name}.deviations.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Deviations) : {};
}

function covered(diffPath: string, allowed: string[]): boolean {
  return allowed.some((a) => diffPath === a || diffPath.startsWith(`${a}.`) || diffPath.startsWith(`${a}[`));
}

/**
 * Replays `name` and returns what is wrong: differences not listed as deviations, and listed deviations
 * that no longer occur (so the list stays true). Empty when Tessera answers as recorded.
 */
export async function goldenProblems(name: string, url: string, token: string): Promise<string[]> {
  const { output } = await replayGolden(name, url, token);
  const parsed = parseDiffOutput(output);
  if (parsed.different < 0) return [`strapi-diff did not finish:\n${output.slice(-2000)}`];
  const deviations = loadDeviations(name);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const d of parsed.diffs) {
    const allowed = deviations[d.request]?.paths ?? [];
    if (allowed.length) seen.add(d.request);
    const unexplained = d.lines.filter((_l, i) => !covered(d.paths[i], allowed));
    if (unexplained.length) problems.push(`${d.request}\n    ${unexplained.join('\n    ')}`);
  }
  for (const request of Object.keys(deviations)) {
    if (!seen.has(request)) problems.push(`${request}: listed in ${name}.deviations.json but answered exactly as recorded (remove it)`);
  }
  return problems;
}
