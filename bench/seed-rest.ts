// Seeds a running real Strapi 4.26.2 (the fixture app, started on the base database of generate.ts) with
// the same content as the bulk generator, through its REST API: slower, for the comparison only.
// Entries are created one at a time in order, so their ids are those the generator gives them.
//
//   npx tsx bench/seed-rest.ts --url http://127.0.0.1:1337 --articles 1000 [--token <full-access token>]
import { DEFAULT_SHAPE, articleData, authorData, categoryData, type DatasetShape } from './lib/content';
import { fixtureToken } from './lib/fixture';

async function post(url: string, token: string, path: string, data: Record<string, unknown>): Promise<number> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ data }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { data?: { id: number }; error?: unknown };
  if (res.status !== 200 || !body.data) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(body.error ?? body).slice(0, 300)}`);
  return body.data.id;
}

export async function seedViaRest(url: string, shape: DatasetShape, opts: { token?: string; log?: (m: string) => void } = {}): Promise<{ ms: number }> {
  const token = opts.token ?? fixtureToken();
  const t0 = performance.now();
  const expect = (kind: string, got: number, want: number) => {
    if (got !== want) throw new Error(`${kind} ${want} was created with id ${got}: seed a database written by generate.ts's writeBaseDb (ids must start at 1)`);
  };
  for (let k = 1; k <= shape.categories; k++) expect('category', await post(url, token, '/api/categories', { ...categoryData(shape, k) }), k);
  for (let k = 1; k <= shape.authors; k++) expect('author', await post(url, token, '/api/authors', { ...authorData(shape, k) }), k);
  for (let i = 1; i <= shape.articles; i++) {
    expect('article', await post(url, token, '/api/articles', { ...articleData(shape, i) }), i);
    if (i % 100 === 0) opts.log?.(`${i}/${shape.articles} articles`);
  }
  return { ms: performance.now() - t0 };
}

async function main(argv: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const url = opt('url');
  if (!url) throw new Error('usage: seed-rest.ts --url http://127.0.0.1:PORT --articles N [--token T]');
  const shape = { ...DEFAULT_SHAPE, articles: Number(opt('articles') ?? 1000) };
  const r = await seedViaRest(url, shape, { token: opt('token'), log: (m) => process.stderr.write(`\r${m}`) });
  console.log(`\nseeded ${shape.articles} articles through ${url} in ${(r.ms / 1000).toFixed(1)} s`);
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
