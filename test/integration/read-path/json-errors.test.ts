// What the JSON read path does with an error. A statement the database refuses as compiled (SQLite: a value
// it cannot write as JSON, a BLOB; PostgreSQL: a column whose type another writer changed after the statement
// was compiled, a boolean attribute's column now integer) is answered by the JavaScript path, with ONE warning
// per query shape naming the error; an error of the database itself (here: a closed connection) is no reason
// to read again another way: it reaches the caller, and does not count against the shape.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import { parseRestQuery } from '../../../src/query/parse-query';
import { copyProject } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';
import { readRequest, targetsFor, type Targets } from './targets';

const ALL_TYPES = path.resolve(__dirname, '../../fixtures/all-types');

const blob = { type: 'Buffer', data: [0, 255] };
/** the odd column of rows 1-3 (`plain`, `odd`, `other`): what is stored, what the JavaScript path answers, the error */
const ODD = onPostgres
  ? {
    column: 'active', alter: 'ALTER TABLE things ALTER COLUMN active TYPE integer USING active::integer', stored: ['true', 'false', 'NULL'], answered: [true, false, null],
    error: /argument of CASE\/WHEN must be type boolean/, stamp: `'2024-01-02 10:00:00'`, closed: /Cannot use a pool after calling end/,
  }
  : { column: 'summary', alter: undefined, stored: [`'a'`, `x'00ff'`, 'NULL'], answered: ['a', blob, null], error: /JSON cannot hold BLOB values/, stamp: '1704189600000', closed: /not open/ };

/** a started copy of all-types whose log lines (JSON, warn and up) land in `lines` */
async function start(): Promise<{ app: Tessera; dir: string; lines: Array<{ level: number; msg: string; err?: { message: string } }> }> {
  const dir = copyProject(ALL_TYPES);
  const lines: Array<{ level: number; msg: string; err?: { message: string } }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  try {
    const app = await createTessera({ dir, logger: pino({ level: 'warn' }, sink), env: { ...process.env, NODE_ENV: 'test' } });
    return { app, dir, lines };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

let running: Awaited<ReturnType<typeof start>>;
let t: Targets;

beforeAll(async () => {
  running = await start();
  const db = running.app.db;
  // SQLite writes no BLOB as JSON: a string column holding one (another writer's) fails the JSON statement
  for (const [i, name] of [`'plain'`, `'odd'`, `'other'`].entries()) {
    await db.run(`INSERT INTO things (name, ${ODD.column}, created_at, updated_at) VALUES (${name}, ${ODD.stored[i]}, ${ODD.stamp}, ${ODD.stamp})`);
  }
  if (ODD.alter) {
    // PostgreSQL: the JSON target writes each value for its column's type as it was when it read them; the
    // statements compiled then are refused once the column is an integer (a boolean test of an integer)
    for (const url of [`/api/things?sort=id&fields[0]=name&fields[1]=${ODD.column}`, `/api/things/2?fields[0]=${ODD.column}`]) await running.app.server.inject({ method: 'GET', url });
    await db.exec(ODD.alter);
  }
  t = targetsFor(db, running.app.model);
});
afterAll(async () => {
  try {
    await running?.app.close();
  } finally {
    if (running) fs.rmSync(running.dir, { recursive: true, force: true });
  }
});

async function get(url: string): Promise<unknown> {
  const res = await running.app.server.inject({ method: 'GET', url }); // the Public role (the project's bootstrap grants it)
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body);
}

const fallbackWarnings = () => running.lines.filter((l) => l.level === 40 && /JSON read path/.test(l.msg));

describe('a statement the database refuses', () => {
  it('is answered by the JavaScript path, correctly, with one warning per query shape naming the error', async () => {
    const col = ODD.column;
    const list = `/api/things?sort=id&fields[0]=name&fields[1]=${col}`;
    const expected = { data: ['plain', 'odd', 'other'].map((name, i) => ({ id: i + 1, attributes: { name, [col]: ODD.answered[i] } })) };
    for (let i = 0; i < 5; i++) expect(await get(list)).toMatchObject(expected);
    expect(fallbackWarnings()).toHaveLength(1);
    const [warning] = fallbackWarnings();
    expect(warning.msg).toContain('api::thing.thing');
    expect(warning.err?.message ?? warning.msg).toMatch(ODD.error);
    // another shape: its own warning, once
    for (let i = 0; i < 3; i++) expect(await get(`/api/things/2?fields[0]=${col}`)).toEqual({ data: { id: 2, attributes: { [col]: ODD.answered[1] } }, meta: {} });
    expect(fallbackWarnings()).toHaveLength(2);
    // what the database can write is still written by it, without a warning (SQLite: pages without the BLOB;
    // PostgreSQL: shapes without the column)
    const plain = onPostgres ? '/api/things/1?fields[0]=name' : `/api/things/1?fields[0]=${col}`;
    expect(await get(plain)).toEqual({ data: { id: 1, attributes: onPostgres ? { name: 'plain' } : { [col]: 'a' } }, meta: {} });
    expect(fallbackWarnings()).toHaveLength(2);
  });
});

describe('an error of the database itself', () => {
  it('reaches the caller from the JSON path instead of a second read through the JavaScript path', async () => {
    const req = readRequest(t.model, '/api/things?sort=id&fields[0]=name')!;
    const q = parseRestQuery(t.context, req.ct, req.raw, 'find');
    const svc = t.service(req.ct.uid);
    expect(await svc.findJson(q)).not.toBeNull();
    await running.app.close();
    await expect(svc.findJson(q)).rejects.toThrow(ODD.closed);
    expect(fallbackWarnings().filter((l) => ODD.closed.test(`${l.msg} ${l.err?.message}`))).toHaveLength(0);
  });
});
