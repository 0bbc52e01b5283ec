// The floor: a hand-written fastify + better-sqlite3 (or pg) server answering the benchmark's read cases for
// the fixture app's articles with direct SQL and nothing else (no auth, no model, no query language): what a
// perfect implementation could reach on this machine. Two variants on SQLite (see queries.ts), the faster one
// being the floor; one on PostgreSQL (pg-queries.ts), whose `--db` is a connection string.
//
//   npx tsx bench/floor/server.ts --db file.db --variant sql|js [--port 0] [--host 127.0.0.1]
//   npx tsx bench/floor/server.ts --db postgres://... --variant pg
import BetterSqlite3 from 'better-sqlite3';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import pg from 'pg';
import { pgFloorQueries, pgListWhere, pgStatements } from './pg-queries';
import { floorQueries, listWhere, Statements, type FloorQueries, type ListQuery, type Variant } from './queries';

export interface Floor {
  app: FastifyInstance;
  /** statements run so far */
  statements: { readonly count: number };
  close(): Promise<void>;
}

const LIST_KEYS = new Set(['populate', 'pagination[page]', 'pagination[pageSize]', 'filters[title][$containsi]', 'sort', 'filters[categories][slug][$eq]']);

/** the sorts served, as ORDER BY (Tessera's final `id ASC` tie-break included) */
const SORTS: Record<string, string | undefined> = { 'views:desc': 'a.views DESC, a.id ASC', 'publishedAt:desc': 'a.published_at DESC, a.id ASC' };

function notServed(reply: FastifyReply, what: string) {
  return reply.code(400).type('application/json; charset=utf-8').send(JSON.stringify({ data: null, error: { status: 400, name: 'FloorError', message: `the floor does not serve ${what}`, details: {} } }));
}

function positiveInt(v: unknown, fallback: number): number | null {
  if (v === undefined) return fallback;
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** the variant's queries over its database, and how to close it */
function open(opts: { db: string; variant: Variant }): { statements: { readonly count: number }; queries: FloorQueries; where: typeof listWhere; close(): Promise<void> } {
  if (opts.variant === 'pg') {
    // as many connections as Tessera's and Strapi's pools on PostgreSQL (bench/lib/postgres.ts)
    const pool = new pg.Pool({ connectionString: opts.db, max: 10, application_name: 'tessera-bench-floor' });
    pool.on('error', () => undefined);
    const statements = pgStatements(pool);
    return { statements, queries: pgFloorQueries(statements), where: pgListWhere, close: () => pool.end() };
  }
  const conn = new BetterSqlite3(opts.db);
  conn.pragma('journal_mode = WAL');
  const statements = new Statements(conn);
  return { statements, queries: floorQueries(statements, opts.variant), where: listWhere, close: async () => void conn.close() };
}

export function createFloor(opts: { db: string; variant: Variant }): Floor {
  const { statements, queries, where, close } = open(opts);
  const app = Fastify({ logger: false });

  app.get('/_health', (_req, reply) => reply.code(204).send());

  app.get('/api/articles', async (req, reply) => {
    const query = req.query as Record<string, string | undefined>;
    for (const k of Object.keys(query)) if (!LIST_KEYS.has(k)) return notServed(reply, `query key ${k}`);
    const page = positiveInt(query['pagination[page]'], 1);
    const pageSize = positiveInt(query['pagination[pageSize]'], 25);
    if (page === null || pageSize === null || pageSize > 100) return notServed(reply, 'this pagination');
    if (query.populate !== undefined && query.populate !== '*') return notServed(reply, `populate=${query.populate}`);
    const search = query['filters[title][$containsi]'];
    const category = query['filters[categories][slug][$eq]'];
    const order = query.sort === undefined ? 'a.id ASC' : SORTS[query.sort];
    if (order === undefined) return notServed(reply, `sort=${query.sort}`);
    const filter = search !== undefined ? where.titleContains(search) : category !== undefined ? where.inCategory(category) : where.all();
    const q: ListQuery = {
      ...filter,
      order,
      page, pageSize,
      populate: query.populate === '*',
    };
    return reply.type('application/json; charset=utf-8').send((await queries.list(q)).body);
  });

  app.get('/api/articles/:id', async (req, reply) => {
    const query = req.query as Record<string, string | undefined>;
    const keys = Object.keys(query).sort().join('&');
    if (keys !== 'populate[author][populate]&populate[categories]' || query['populate[author][populate]'] !== 'avatar' || query['populate[categories]'] !== 'true') {
      return notServed(reply, 'this findOne query');
    }
    const id = Number((req.params as { id: string }).id);
    const body = Number.isInteger(id) && id > 0 ? await queries.findOne(id) : null;
    if (body === null) {
      return reply.code(404).type('application/json; charset=utf-8').send(JSON.stringify({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } }));
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });

  return {
    app,
    statements,
    async close() {
      await app.close();
      await close();
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const db = opt('db');
  const variant = (opt('variant') ?? 'sql') as Variant;
  if (!db || !['js', 'sql', 'pg'].includes(variant)) throw new Error('usage: server.ts --db file.db|postgres-url --variant sql|js|pg [--port N] [--host H]');
  const floor = createFloor({ db, variant });
  const url = await floor.app.listen({ host: opt('host') ?? '127.0.0.1', port: Number(opt('port') ?? 0) });
  console.log(`floor (${variant}) listening on ${url}`);
  process.send?.({ ready: url });
  const stop = () => void floor.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
