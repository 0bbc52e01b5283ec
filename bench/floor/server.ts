// The floor: a hand-written fastify + better-sqlite3 server answering the benchmark's read cases for the
// fixture app's articles with direct SQL and nothing else (no auth, no model, no query language): what a
// perfect implementation could reach on this machine. Two variants (see queries.ts); the faster one is the floor.
//
//   npx tsx bench/floor/server.ts --db file.db --variant sql|js [--port 0] [--host 127.0.0.1]
import BetterSqlite3 from 'better-sqlite3';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { floorQueries, listWhere, Statements, type ListQuery, type Variant } from './queries';

export interface Floor {
  app: FastifyInstance;
  statements: Statements;
  close(): Promise<void>;
}

const LIST_KEYS = new Set(['populate', 'pagination[page]', 'pagination[pageSize]', 'filters[title][$containsi]', 'sort', 'filters[categories][slug][$eq]']);

function notServed(reply: FastifyReply, what: string) {
  return reply.code(400).type('application/json; charset=utf-8').send(JSON.stringify({ data: null, error: { status: 400, name: 'FloorError', message: `the floor does not serve ${what}`, details: {} } }));
}

function positiveInt(v: unknown, fallback: number): number | null {
  if (v === undefined) return fallback;
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
}

export function createFloor(opts: { db: string; variant: Variant }): Floor {
  const conn = new BetterSqlite3(opts.db);
  conn.pragma('journal_mode = WAL');
  const statements = new Statements(conn);
  const queries = floorQueries(statements, opts.variant);
  const app = Fastify({ logger: false });

  app.get('/_health', (_req, reply) => reply.code(204).send());

  app.get('/api/articles', (req, reply) => {
    const query = req.query as Record<string, string | undefined>;
    for (const k of Object.keys(query)) if (!LIST_KEYS.has(k)) return notServed(reply, `query key ${k}`);
    const page = positiveInt(query['pagination[page]'], 1);
    const pageSize = positiveInt(query['pagination[pageSize]'], 25);
    if (page === null || pageSize === null || pageSize > 100) return notServed(reply, 'this pagination');
    if (query.populate !== undefined && query.populate !== '*') return notServed(reply, `populate=${query.populate}`);
    const search = query['filters[title][$containsi]'];
    const category = query['filters[categories][slug][$eq]'];
    if (query.sort !== undefined && query.sort !== 'views:desc') return notServed(reply, `sort=${query.sort}`);
    const filter = search !== undefined ? listWhere.titleContains(search) : category !== undefined ? listWhere.inCategory(category) : listWhere.all();
    const q: ListQuery = {
      ...filter,
      order: query.sort === 'views:desc' ? 'a.views DESC, a.id ASC' : 'a.id ASC',
      page, pageSize,
      populate: query.populate === '*',
    };
    return reply.type('application/json; charset=utf-8').send(queries.list(q).body);
  });

  app.get('/api/articles/:id', (req, reply) => {
    const query = req.query as Record<string, string | undefined>;
    const keys = Object.keys(query).sort().join('&');
    if (keys !== 'populate[author][populate]&populate[categories]' || query['populate[author][populate]'] !== 'avatar' || query['populate[categories]'] !== 'true') {
      return notServed(reply, 'this findOne query');
    }
    const id = Number((req.params as { id: string }).id);
    const body = Number.isInteger(id) && id > 0 ? queries.findOne(id) : null;
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
      conn.close();
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
  if (!db || (variant !== 'js' && variant !== 'sql')) throw new Error('usage: server.ts --db file.db --variant sql|js [--port N] [--host H]');
  const floor = createFloor({ db, variant });
  const url = await floor.app.listen({ host: opt('host') ?? '127.0.0.1', port: Number(opt('port') ?? 0) });
  console.log(`floor (${variant}) listening on ${url}`);
  process.send?.({ ready: url });
  const stop = () => void floor.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
