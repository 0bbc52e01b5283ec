// Checks once that the two ways of building a dataset agree: real Strapi 4.26.2 seeded through its REST
// API (seed-rest.ts) and the same database written in bulk through Tessera's storage layer
// (generate.ts) give the same answers, served by real Strapi itself (createdAt/updatedAt aside: v4's REST
// API sets those itself).
//
//   npx tsx bench/verify-seed.ts --strapi-dir ~/strapi4-ref --strapi-port 1337 [--articles 300]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import qs from 'qs';
import { generateDataset, writeBaseDb } from './generate';
import { jsonDiff } from './lib/compare';
import { DEFAULT_SHAPE } from './lib/content';
import { startStrapi } from './lib/servers';
import { seedViaRest } from './seed-rest';

const q = (o: Record<string, unknown>) => qs.stringify(o, { encodeValuesOnly: true });

function samplePaths(articles: number): string[] {
  return [
    '/api/articles?pagination[pageSize]=100',
    `/api/articles?${q({ populate: '*', pagination: { page: 2 } })}`,
    `/api/articles?${q({ populate: { seo: { populate: '*' }, blocks: { populate: '*' }, author: { populate: '*' }, categories: true, cover: true }, publicationState: 'preview', pagination: { pageSize: 50 } })}`,
    `/api/articles/${Math.min(articles, 7)}?${q({ populate: { author: { populate: 'avatar' }, categories: true } })}`,
    `/api/articles?${q({ filters: { categories: { slug: { $eq: 'category-3' } } }, sort: 'views:desc' })}`,
    '/api/authors?populate=*',
    '/api/categories?pagination[pageSize]=100',
  ];
}

/** v4's REST API sets createdAt/updatedAt itself (it ignores them in the payload): only those are left out. */
function withoutTimestamps(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutTimestamps);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'createdAt' || k === 'updatedAt' ? '<set by the server>' : withoutTimestamps(x)]));
  }
  return v;
}

async function answers(url: string, paths: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const p of paths) {
    const res = await fetch(url + p, { signal: AbortSignal.timeout(30_000) });
    out.push({ status: res.status, body: withoutTimestamps(await res.json()) });
  }
  return out;
}

async function main(argv: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dir = path.resolve(opt('strapi-dir') ?? process.env.STRAPI4_DIR ?? path.join(os.homedir(), 'strapi4-ref'));
  const port = Number(opt('strapi-port') ?? process.env.STRAPI4_PORT ?? 1337);
  const shape = { ...DEFAULT_SHAPE, articles: Number(opt('articles') ?? 300) };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-verify-'));
  const logFile = path.join(work, 'strapi.log');
  const paths = samplePaths(shape.articles);
  try {
    const base = path.join(work, 'base.db');
    await writeBaseDb(base);
    let strapi = await startStrapi({ dir, port, db: base, logFile });
    let viaRest: unknown[];
    try {
      const seeded = await seedViaRest(strapi.url, shape, { log: (m) => process.stderr.write(`\r${m}`) });
      console.log(`\nREST: ${shape.articles} articles seeded in ${(seeded.ms / 1000).toFixed(1)} s`);
      viaRest = await answers(strapi.url, paths);
    } finally {
      await strapi.stop();
    }
    const bulk = path.join(work, 'bulk.db');
    const generated = await generateDataset(bulk, shape);
    console.log(`bulk: ${shape.articles} articles written in ${(generated.ms / 1000).toFixed(2)} s`);
    strapi = await startStrapi({ dir, port, db: bulk, logFile });
    let viaBulk: unknown[];
    try {
      viaBulk = await answers(strapi.url, paths);
    } finally {
      await strapi.stop();
    }
    let differences = 0;
    paths.forEach((p, i) => {
      const d = jsonDiff(viaRest[i], viaBulk[i], '$', [], 8);
      differences += d.length;
      console.log(`${d.length ? 'DIFFERENT' : 'same     '}  ${decodeURIComponent(p)}${d.length ? `\n    ${d.join('\n    ')}` : ''}`);
    });
    console.log(differences ? `${differences} differences` : 'Strapi gives the same answers on both databases');
    if (differences) process.exitCode = 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
