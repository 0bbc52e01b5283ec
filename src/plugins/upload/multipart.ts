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
 * `acceptFile`: which file fields to keep (v4's upload route reads `files`; others are read and dropped);
 * `onField`: sees each field as it arrives, before the parts after it (an error it throws ends the request)
 */
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

export async function receiveMultipart(req: FastifyRequest, o: { limits: MultipartLimits; sizeLimit: number; gate?: UploadGate; acceptFile(field: string): boolean; onField?(name: string, value: string): void }): Promise<ReceivedUpload> {
  o.gate?.enter();
  try {
    return await readMultipart(req, o);
  } finally {
    o.gate?.leave();
  }
}

async function readMultipart(req: FastifyRequest, o: { limits: MultipartLimits; sizeLimit: number; acceptFile(field: string): boolean; onField?(name: string, value: string): void }): Promise<ReceivedUpload> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tessera-upload-'));
  const cleanup = () => fs.promises.rm(dir, { recursive: true, force: true });
  const fields: Record<string, string | string[]> = {};
  const files: ReceivedFile[] = [];
  try {
    const parts = req.parts({
      limits: { fileSize: o.limits.maxFileSize, files: o.limits.maxFiles, fields: o.limits.maxFields, fieldSize: o.limits.maxFieldSize, parts: o.limits.maxFiles + o.limits.maxFields },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw new PayloadTooLargeError(`The field ${part.fieldname} is too large`);
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        o.onField?.(part.fieldname, value);
        const prev = fields[part.fieldname];
        fields[part.fieldname] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
        continue;
      }
      if (!o.acceptFile(part.fieldname)) {
        await pipeline(part.file, discard());
        continue;
      }
      const target = path.join(dir, String(files.length));
      const meter = new Meter(o.sizeLimit);
      await pipeline(part.file, meter, fs.createWriteStream(target, { flags: 'wx', highWaterMark: 1024 * 1024 }));
      if (part.file.truncated) throw new PayloadTooLargeError('FileTooBig');
      if (meter.overLimit) throw sizeLimitError(part.filename, o.sizeLimit);
      files.push({ field: part.fieldname, fileName: part.filename, clientType: part.mimetype, path: target, bytes: meter.bytes, head: meter.head });
    }
    return { fields, files, cleanup };
  } catch (err) {
    await cleanup();
    throw multipartError(err);
  }
}
