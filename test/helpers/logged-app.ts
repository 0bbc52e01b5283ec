// A private copy of a test project started on an empty database, as startProjectCopy does, but with its log
// lines (warn and up) kept for the test to read: for what start-up says about a project.
import fs from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createTessera, type Tessera } from '../../src/core/tessera';
import { copyProject } from './fixture-app';

export interface LogLine { level: number; msg: string; err?: { message: string } }

export interface LoggedApp {
  app: Tessera;
  url: string;
  dir: string;
  /** every line logged at warn and up, start-up included */
  lines: LogLine[];
  stop(): Promise<void>;
}

export async function startLoggedProjectCopy(source: string, edit: Record<string, string> = {}): Promise<LoggedApp> {
  const dir = copyProject(source, edit);
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  let app: Tessera | undefined;
  try {
    app = await createTessera({ dir, logger: pino({ level: 'warn' }, sink), env: { ...process.env, NODE_ENV: 'test' } });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const started = app;
    return {
      app: started, url, dir, lines,
      async stop() {
        try {
          await started.close();
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
