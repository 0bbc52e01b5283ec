// V8 heap snapshots of the server under soak, and what two of them say. The server is started with
// `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=DIR` (Tessera has no hook of its own): SIGUSR2 makes node
// write Heap.<date>.<time>.<pid>.<tid>.<seq>.heapsnapshot into DIR. A snapshot holds only what survives the
// full garbage collection V8 runs first, so its total is the live heap: the measure of a leak.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** the node options that make a process write a heap snapshot into `dir` on SIGUSR2 */
export const heapSnapshotNodeOptions = (dir: string): string => `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`;

const snapshotsIn = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));

/**
 * Signals the process and waits for its new snapshot file to be complete. Node writes it synchronously on its
 * main thread, so an answer to a request sent once the file exists can only come after the file is written.
 */
export async function takeHeapSnapshot(pid: number, dir: string, healthUrl: string, timeoutMs = 180_000): Promise<string> {
  const before = new Set(snapshotsIn(dir));
  const t0 = performance.now();
  process.kill(pid, 'SIGUSR2');
  let file: string | undefined;
  while (!(file = snapshotsIn(dir).find((f) => !before.has(f)))) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`no heap snapshot from pid ${pid} in ${dir} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await answered(healthUrl, timeoutMs);
  return path.join(dir, file);
}

/**
 * Waits for a 2xx from `url` on a new connection: a kept-alive one would race the server's keep-alive timer,
 * which fires as soon as the snapshot unblocks its event loop (ECONNRESET).
 */
function answered(url: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode! >= 200 && res.statusCode! < 300 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

export interface HeapSummary {
  /** bytes of every live object (sum of self sizes) */
  totalBytes: number;
  nodes: number;
  /** per constructor (objects) or `(type)` for the rest (strings, closures, code, arrays ...) */
  byConstructor: Map<string, { count: number; bytes: number }>;
}

interface SnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Totals per constructor, as DevTools' Summary view groups them. */
export function summarizeHeapSnapshot(file: string): HeapSummary {
  const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as SnapshotFile;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length, typeAt = fields.indexOf('type'), nameAt = fields.indexOf('name'), sizeAt = fields.indexOf('self_size');
  const byConstructor = new Map<string, { count: number; bytes: number }>();
  let totalBytes = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const size = snap.nodes[i + sizeAt];
    totalBytes += size;
    const key = type === 'object' || type === 'native' ? snap.strings[snap.nodes[i + nameAt]] : `(${type})`;
    const e = byConstructor.get(key);
    if (e) {
      e.count++;
      e.bytes += size;
    } else byConstructor.set(key, { count: 1, bytes: size });
  }
  return { totalBytes, nodes: snap.nodes.length / width, byConstructor };
}

export interface ConstructorChange {
  name: string;
  before: number;
  after: number;
  bytesBefore: number;
  bytesAfter: number;
}

/** the constructors with the most objects at the end, those whose count grew most, and those whose bytes grew most */
export function compareHeapSummaries(before: HeapSummary, after: HeapSummary, top = 12): { largest: ConstructorChange[]; grown: ConstructorChange[]; grownBytes: ConstructorChange[] } {
  const names = new Set([...before.byConstructor.keys(), ...after.byConstructor.keys()]);
  const all = [...names].map((name) => {
    const b = before.byConstructor.get(name), a = after.byConstructor.get(name);
    return { name, before: b?.count ?? 0, after: a?.count ?? 0, bytesBefore: b?.bytes ?? 0, bytesAfter: a?.bytes ?? 0 };
  });
  return {
    largest: [...all].sort((x, y) => y.after - x.after).slice(0, top),
    grown: all.filter((c) => c.after > c.before).sort((x, y) => y.after - y.before - (x.after - x.before)).slice(0, top),
    grownBytes: all.filter((c) => c.bytesAfter > c.bytesBefore).sort((x, y) => y.bytesAfter - y.bytesBefore - (x.bytesAfter - x.bytesBefore)).slice(0, top),
  };
}
