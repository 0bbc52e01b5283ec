// pino with v4's human-readable console lines (`[time] level: message`), JSON when LOG_FORMAT=json.
import pino, { type Logger } from 'pino';

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

export function createLogger(opts: { level?: string; silent?: boolean } = {}): Logger {
  const level = opts.silent ? 'silent' : (opts.level ?? process.env.LOG_LEVEL ?? 'info');
  if (process.env.LOG_FORMAT === 'json') return pino({ level });
  const stream = {
    write(line: string) {
      try {
        const o = JSON.parse(line) as { time: number; level: number; msg?: string; err?: { stack?: string; message?: string } };
        const ts = new Date(o.time).toISOString().replace('T', ' ').replace('Z', '');
        const extra = o.err ? `\n${o.err.stack ?? o.err.message}` : '';
        const out = `[${ts}] ${LEVELS[o.level] ?? o.level}: ${o.msg ?? ''}${extra}\n`;
        (o.level >= 50 ? process.stderr : process.stdout).write(out);
      } catch {
        process.stdout.write(line);
      }
    },
  };
  return pino({ level }, stream);
}
