// What the JSON read path does with an error. A statement SQLite refuses for a value it cannot write as JSON
// (a BLOB) is answered by the JavaScript path, with ONE warning per query shape naming the error; an error of
// the database itself (here: a closed connection) is no reason to read again another way: it reaches the
// caller, and does not count against the shape.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import { parseRestQuery } from '../../../src/query/parse-query';
import { copyProject } from '../../helpers/fixture-app';
import { readRequest, targetsFor, type Targets } from './targets';

const ALL_TYPES = path.resolve(__dirname, '../../fixtures/all-types');

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
  for (const [name, summary] of [[`'plain'`, `'a'`], [`'blob'`, `x'00ff'`], [`'other'`, 'NULL']]) {
    await db.run(`INSERT INTO things (name, summary, active, created_at, updated_at) VALUES (${name}, ${summary}, 1, 1704189600000, 1704189600000)`);
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

describe('a statement SQLite refuses', () => {
  it('is answered by the JavaScript path, correctly, with one warning per query shape naming the error', async () => {
    const list = '/api/things?sort=id&fields[0]=name&fields[1]=summary';
    const blob = { type: 'Buffer', data: [0, 255] };
    const expected = { data: [{ id: 1, attributes: { name: 'plain', summary: 'a' } }, { id: 2, attributes: { name: 'blob', summary: blob } }, { id: 3, attributes: { name: 'other', summary: null } }] };
    for (let i = 0; i < 5; i++) expect(await get(list)).toMatchObject(expected);
    expect(fallbackWarnings()).toHaveLength(1);
    const [warning] = fallbackWarnings();
    expect(warning.msg).toContain('api::thing.thing');
    expect(warning.err?.message ?? warning.msg).toMatch(/JSON cannot hold BLOB values/);
    // another shape: its own warning, once
    for (let i = 0; i < 3; i++) expect(await get('/api/things/2?fields[0]=summary')).toEqual({ data: { id: 2, attributes: { summary: blob } }, meta: {} });
    expect(fallbackWarnings()).toHaveLength(2);
    // pages without the BLOB are still written by SQLite, without a warning
    expect(await get('/api/things/1?fields[0]=summary')).toEqual({ data: { id: 1, attributes: { summary: 'a' } }, meta: {} });
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
    await expect(svc.findJson(q)).rejects.toThrow(/not open/);
    expect(fallbackWarnings().filter((l) => /not open/.test(`${l.msg} ${l.err?.message}`))).toHaveLength(0);
  });
});
