// `tessera locales list|add|default` on a copy of the fixture app's database: through the real binary
// once, then in-process through the same entry point (main) for speed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { copyFixtureApp } from '../../helpers/fixture-app';

const BIN = path.resolve(__dirname, '../../../bin/tessera.js');
let dir: string;
beforeAll(() => {
  dir = copyFixtureApp(true);
});
afterAll(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function tessera(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err += String(s); return true; });
  try {
    const code = await main(['locales', ...args, '--dir', dir]);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

it('the binary lists the locales, the default marked', () => {
  const r = spawnSync(process.execPath, [BIN, 'locales', 'list', '--dir', dir], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } });
  expect([r.status, r.stdout]).toEqual([0, 'en\tEnglish (en)\t(default)\nfr\tFrench (fr)\n']);
});

it('adds a locale and sets the default', async () => {
  expect(await tessera('add', 'de', '--name', 'German (de)')).toMatchObject({ code: 0, out: 'added locale de (German (de))\n' });
  expect(await tessera('default', 'de')).toMatchObject({ code: 0, out: 'default locale is now de\n' });
  expect((await tessera('list')).out).toBe('en\tEnglish (en)\nfr\tFrench (fr)\nde\tGerman (de)\t(default)\n');
  expect(await tessera('add', 'pt-BR')).toMatchObject({ code: 0, out: 'added locale pt-BR (pt-BR)\n' });
});

it('refuses what it cannot do, with a message and a non-zero exit', async () => {
  expect(await tessera('add', 'de')).toMatchObject({ code: 1, err: 'tessera: locale "de" already exists\n' });
  expect((await tessera('add', "x'; drop table")).code).toBe(2);
  expect(await tessera('default', 'xx')).toMatchObject({ code: 1, err: 'tessera: no locale "xx" (add it first: tessera locales add xx)\n' });
  expect((await tessera('remove', 'fr')).code).toBe(2);
  expect((await tessera('add')).code).toBe(2);
});
