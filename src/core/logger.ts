// pino with v4's human-readable console lines (`[time] level: message`), JSON when LOG_FORMAT=json.
import pino, { type Logger } from 'pino';

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * Lines for stdout, written together once per turn of the event loop (or at 64 kB, before anything goes to
 * stderr, and at exit) instead of one write each: on Linux stdout writes are synchronous, and a request log
 * line per request cost one system call each (~15 % of a findOne's CPU under load; bench/README.md, finding 4).
 */
let pending = '';
let scheduled = false;
function flushStdout(): void {
  scheduled = false;
  if (!pending) return;
  const out = pending;
  pending = '';
  process.stdout.write(out);
}
function writeStdout(out: string): void {
  pending += out;
  if (pending.length >= 65536) flushStdout();
  else if (!scheduled) {
    scheduled = true;
    setImmediate(flushStdout);
  }
}
process.on('exit', flushStdout);

/** `[2026-11-26 09:00:00.000] info: msg` as the text stream below writes it */
function textLine(time: number, level: string, msg: string): string {
  return `[${new Date(time).toISOString().replace('T', ' ').replace('Z', '')}] ${level}: ${msg}\n`;
}

const INFO_LINE = Symbol('tessera.infoLine');

/**
 * `log.info(msg)` for the lines written per request (strapi::logger): with Tessera's own text logger, the line
 * written straight away, without pino's JSON and its parse back (a third of a kept answer's cost went there).
 */
export function infoLine(log: Logger): (msg: string) => void {
  const direct = (log as Logger & { [INFO_LINE]?: (msg: string) => void })[INFO_LINE];
  return direct ?? ((msg) => log.info(msg));
}

export function createLogger(opts: { level?: string; silent?: boolean } = {}): Logger {
  const level = opts.silent ? 'silent' : (opts.level ?? process.env.LOG_LEVEL ?? 'info');
  if (process.env.LOG_FORMAT === 'json') return pino({ level });
  const stream = {
    write(line: string) {
      try {
        const o = JSON.parse(line) as { time: number; level: number; msg?: string; err?: { stack?: string; message?: string } };
        const extra = o.err ? `\n${o.err.stack ?? o.err.message}` : '';
        const out = textLine(o.time, String(LEVELS[o.level] ?? o.level), `${o.msg ?? ''}${extra}`);
        if (o.level >= 50) {
          flushStdout(); // keep the order of stdout and stderr lines
          process.stderr.write(out);
        } else writeStdout(out);
      } catch {
        writeStdout(line);
      }
    },
  };
  const logger = pino({ level }, stream);
  Object.defineProperty(logger, INFO_LINE, { value: (msg: string) => { if (logger.isLevelEnabled('info')) writeStdout(textLine(Date.now(), 'info', msg)); } });
  return logger;
}
