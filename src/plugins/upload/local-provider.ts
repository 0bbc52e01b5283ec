// The built-in `local` provider: files under `public/uploads/<hash><ext>`, url `/uploads/<hash><ext>` (v4).
// Each file is streamed to a hidden temporary name beside its target and renamed into place, so a
// failed or interrupted write never leaves a partial file under a served name; a finished temporary
// upload on the same file system is simply renamed into place (no second copy of a large file).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isSafeStorageKey } from './file-name';
import type { ProviderFile, UploadProviderInstance } from './provider';

const UPLOADS_URL = '/uploads';

function targetOf(dir: string, file: { hash: string; ext: string }): string {
  const key = `${file.hash}${file.ext ?? ''}`;
  if (!isSafeStorageKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return path.join(dir, key);
}

export function createLocalProvider(uploadsDir: string): UploadProviderInstance {
  const write = async (file: ProviderFile, source: NodeJS.ReadableStream | Buffer) => {
    const target = targetOf(uploadsDir, file);
    await fs.promises.mkdir(uploadsDir, { recursive: true });
    // not named after the key: a key may use the whole 255 bytes a file name has
    const partial = path.join(uploadsDir, `.upload-${crypto.randomBytes(8).toString('hex')}.partial`);
    try {
      if (Buffer.isBuffer(source)) await fs.promises.writeFile(partial, source, { flag: 'wx' });
      else await pipeline(source, fs.createWriteStream(partial, { flags: 'wx' }));
      await fs.promises.rename(partial, target);
    } catch (err) {
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
    file.url = `${UPLOADS_URL}/${path.basename(target)}`;
  };
  return {
    async uploadStream(file) {
      if (!file.stream) throw new Error('Missing file stream');
      await write(file, file.stream);
    },
    async upload(file) {
      if (!file.buffer) throw new Error('Missing file buffer');
      await write(file, file.buffer);
    },
    async adoptFile(file, tempPath) {
      const target = targetOf(uploadsDir, file);
      await fs.promises.mkdir(uploadsDir, { recursive: true });
      try {
        await fs.promises.rename(tempPath, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EXDEV') return false; // another file system: copy instead
        throw err;
      }
      file.url = `${UPLOADS_URL}/${path.basename(target)}`;
      return true;
    },
    async delete(file) {
      await fs.promises.rm(targetOf(uploadsDir, file), { force: true });
    },
    isPrivate: () => false,
  };
}
