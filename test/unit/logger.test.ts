// The text log lines (core/logger.ts): v4's `[time] level: message`, also for the per-request line written
// without pino's JSON round trip (infoLine), and nothing at all when the level hides info.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, infoLine } from '../../src/core/logger';

const LINE = /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] info: GET \/api\/articles \(0 ms\) 200\n$/;

afterEach(() => {
  vi.restoreAllMocks();
});

async function written(run: () => void): Promise<string> {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string) => (chunks.push(String(chunk)), true)) as never);
  run();
  await new Promise((resolve) => setImmediate(resolve)); // lines go out once per turn of the event loop
  return chunks.join('');
}

describe('request log lines', () => {
  it('infoLine writes the same line as log.info', async () => {
    const log = createLogger({ level: 'info' });
    const direct = await written(() => infoLine(log)('GET /api/articles (0 ms) 200'));
    const through = await written(() => log.info('GET /api/articles (0 ms) 200'));
    expect(direct).toMatch(LINE);
    expect(through).toMatch(LINE);
  });

  it('writes nothing when the level hides info', async () => {
    const log = createLogger({ level: 'warn' });
    expect(await written(() => infoLine(log)('GET /api/articles (0 ms) 200'))).toBe('');
  });

  it('falls back to log.info for another logger', () => {
    const info = vi.fn();
    infoLine({ info } as never)('x');
    expect(info).toHaveBeenCalledWith('x');
  });
});
