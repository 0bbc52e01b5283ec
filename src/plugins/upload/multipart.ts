// Reading an upload request: each file part is streamed straight to a temporary file (never held in
// memory), its first bytes kept for type sniffing and its size counted against the limits as it arrives.
// Whatever happens (limits, malformed bodies, a client that hangs up midway) the temporary folder goes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ApplicationError, PayloadTooLargeError, ServiceUnavailableError } from '../../errors';
import type { MultipartLimits } from './config';
import { bytesToHumanReadable } from './file-name';
import { SNIFF_BYTES } from './file-type';

export interface ReceivedFile {
  /** the form field it came in (`files`, or `files.<attribute>` for an entry write) */
  field: string;
  /** the name the client gave (v4 `file.name`) */
  fileName: string;
  /** the client's Content-Type: recorded for nothing but logs, never trusted */
  clientType: string;
  /** temporary file holding the content */
  path: string;
  bytes: number;
  /** the first bytes, for sniffing */
  head: Buffer;
}

export interface ReceivedUpload {
  /** non-file fields; repeated names become arrays */
  fields: Record<string, string | string[]>;
  /** the accepted file parts, in request order */
  files: ReceivedFile[];
  /** removes the temporary files */
  cleanup(): Promise<void>;
}

/** v4 compares the size rounded to KB with two decimals (bytesToKbytes, then kbytesToBytes) */
export function exceedsSizeLimit(bytes: number, sizeLimit: number): boolean {
  return (Math.round((bytes / 1000) * 100) / 100) * 1000 > sizeLimit;
}

export function sizeLimitError(name: string, sizeLimit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`${name} exceeds size limit of ${bytesToHumanReadable(sizeLimit)}.`);
}

/** counts bytes and keeps the head; past `sizeLimit` it stops passing data on (v4 still reads to the end) */
class Meter extends Transform {
  bytes = 0;
  overLimit = false;
  private headChunks: Buffer[] = [];
  private headBytes = 0;
  constructor(private readonly sizeLimit: number) {
    super();
  }
  get head(): Buffer {
    return Buffer.concat(this.headChunks, this.headBytes);
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.bytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headBytes);
      this.headChunks.push(Buffer.from(part));
      this.headBytes += part.length;
    }
    if (this.overLimit || exceedsSizeLimit(this.bytes, this.sizeLimit)) {
      this.overLimit = true;
      return done();
    }
    done(null, chunk);
  }
}

const discard = () => new Writable({ write: (_c, _e, cb) => cb() });

function multipartError(err: unknown): unknown {
  const code = (err as { code?: string })?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE': return new PayloadTooLargeError('FileTooBig');
    case 'FST_FILES_LIMIT': return new PayloadTooLargeError('Too many files in one request');
    case 'FST_FIELDS_LIMIT': return new PayloadTooLargeError('Too many fields in one request');
    case 'FST_PARTS_LIMIT': return new PayloadTooLargeError('Too many parts in one request');
    case 'FST_PROTO_VIOLATION': return new ApplicationError('Invalid field name');
    case 'FST_MP_PREMATURE_CLOSE': return new ApplicationError('The request ended before the upload was complete');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE': return new ApplicationError('the request is not multipart/form-data');
  }
  if (err instanceof ApplicationError) return err;
  const message = (err as Error)?.message ?? '';
  // the client went away midway: nothing to answer, and not a server error
  if (message === 'aborted' || code === 'ECONNRESET') return new ApplicationError('The request ended before the upload was complete');
  // busboy: malformed bodies ("Unexpected end of form", "Malformed part header", ...)
  if (/multipart|form|part|boundary|header/i.test(message)) return new ApplicationError(`Invalid multipart body: ${message}`);
  return err;
}

/**
 * How many multipart requests are read at once (upload.config.maxConcurrentUploads): each holds a temporary folder
 * and its client's stream, so a client opening many slow uploads cannot take them all; one more is a 503.
 */
export class UploadGate {
  private inProgress = 0;
  constructor(readonly max: number) {}
  /** a place for one more upload, or the 503; `leave()` once it is read (or failed) */
  enter(): void {
    if (this.inProgress >= this.max) throw new ServiceUnavailableError(`Too many uploads in progress (at most ${this.max}), try again shortly`);
    this.inProgress++;
  }
  leave(): void {
    this.inProgress--;
  }
}

/** how long the parser may stop taking the body's bytes while they are there to take (it needs microseconds) */
const PARSER_STALL_MS = 2000;
const STALL_CHECK_MS = 250;

/**
 * What ends a multipart reading that the parser would leave waiting forever (found by fuzzing, issue 18): the
 * client going away before the end of the body (the parts iterator never settles, so the request would keep its
 * UploadGate place and temporary folder), and a parser that stops taking the body's bytes while they are there
 * (busboy reads `--B\r\n\r\n` and 60 KB more as a part whose headers never end, stops reading, and never
 * finishes). `parsed` races a step of the parser with both; `written` races a file's write with the first (a
 * slow disk is not a stall).
 */
class BodyWatch {
  private fail!: (err: Error) => void;
  private readonly failed = new Promise<never>((_, reject) => { this.fail = reject; });
  constructor(private readonly raw: FastifyRequest['raw']) {
    this.failed.catch(() => undefined);
    // no 'data' listener: it would start the body flowing before the parser is there to take it
    raw.on('close', this.onClose);
    if (raw.destroyed) this.onClose();
  }
  private readonly onClose = () => {
    if (!this.raw.complete) this.fail(new ApplicationError('The request ended before the upload was complete'));
  };
  /**
   * the parser has every byte it will get (the HTTP message is complete: its last bytes may still sit in a paused
   * stream, so `end` alone would not tell), or bytes wait for it while it holds the body back (a pipe pauses its
   * source)
   */
  private waitsForParser(): boolean {
    return this.raw.complete || this.raw.readableFlowing === false && this.raw.readableLength > 0;
  }
  async parsed<T>(step: Promise<T>): Promise<T> {
    let since = Date.now();
    const check = setInterval(() => {
      if (!this.waitsForParser()) since = Date.now();
      else if (Date.now() - since >= PARSER_STALL_MS) this.fail(new ApplicationError('Invalid multipart body: the parser stopped before its end'));
    }, STALL_CHECK_MS);
    try {
      return await Promise.race([step, this.failed]);
    } finally {
      clearInterval(check);
    }
  }
  written<T>(write: Promise<T>): Promise<T> {
    return Promise.race([write, this.failed]);
  }
  stop(): void {
    this.raw.off('close', this.onClose);
  }
}

/**
 * `acceptFile`: which file fields to keep (v4's upload route reads `files`; others are read and dropped);
 * `onField`: sees each field as it arrives, before the parts after it (an error it throws ends the request)
 */
export async function receiveMultipart(req: FastifyRequest, o: { limits: MultipartLimits; sizeLimit: number; gate?: UploadGate; acceptFile(field: string): boolean; onField?(name: string, value: string): void }): Promise<ReceivedUpload> {
  o.gate?.enter();
  // watched from the start: the client may be gone before the temporary folder exists
  const watch = new BodyWatch(req.raw);
  try {
    return await readMultipart(req, watch, o);
  } finally {
    watch.stop();
    o.gate?.leave();
  }
}

async function readMultipart(req: FastifyRequest, watch: BodyWatch, o: { limits: MultipartLimits; sizeLimit: number; acceptFile(field: string): boolean; onField?(name: string, value: string): void }): Promise<ReceivedUpload> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tessera-upload-'));
  const cleanup = () => fs.promises.rm(dir, { recursive: true, force: true });
  const fields: Record<string, string | string[]> = {};
  const files: ReceivedFile[] = [];
  /** the file part being read: destroyed when the reading ends early, so its write stream closes */
  let reading: NodeJS.ReadableStream & { destroy(): void } | undefined;
  try {
    const parts = req.parts({
      limits: { fileSize: o.limits.maxFileSize, files: o.limits.maxFiles, fields: o.limits.maxFields, fieldSize: o.limits.maxFieldSize, parts: o.limits.maxFiles + o.limits.maxFields },
    })[Symbol.asyncIterator]();
    for (;;) {
      const next = await watch.parsed(parts.next());
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        if (part.valueTruncated) throw new PayloadTooLargeError(`The field ${part.fieldname} is too large`);
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        o.onField?.(part.fieldname, value);
        const prev = fields[part.fieldname];
        fields[part.fieldname] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
        continue;
      }
      reading = part.file;
      if (!o.acceptFile(part.fieldname)) {
        await watch.written(pipeline(part.file, discard()));
        continue;
      }
      const target = path.join(dir, String(files.length));
      const meter = new Meter(o.sizeLimit);
      await watch.written(pipeline(part.file, meter, fs.createWriteStream(target, { flags: 'wx', highWaterMark: 1024 * 1024 })));
      reading = undefined;
      if (part.file.truncated) throw new PayloadTooLargeError('FileTooBig');
      if (meter.overLimit) throw sizeLimitError(part.filename, o.sizeLimit);
      files.push({ field: part.fieldname, fileName: part.filename, clientType: part.mimetype, path: target, bytes: meter.bytes, head: meter.head });
    }
    return { fields, files, cleanup };
  } catch (err) {
    reading?.destroy();
    await cleanup();
    throw multipartError(err);
  }
}
