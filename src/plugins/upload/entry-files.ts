// The upload plugin's part in multipart entry writes (rest/entry-uploads.ts): reading the request to disk,
// and storing the files of each `files.<path>` before the entry is written. The caller needs the upload
// permission (v4 does not ask), and each file's type, sniffed from its bytes, must suit its attribute.
import type { Auth } from '../../auth/authenticate';
import { BadRequestError } from '../../errors';
import type { Entity } from '../../query/types';
import type { EntryUploads } from '../../rest/entry-uploads';
import { checkAllowedType } from './attach';
import type { UploadConfig } from './config';
import { storedType, sniffType } from './file-type';
import { receiveMultipart } from './multipart';
import type { UploadService } from './upload-service';

export interface EntryFilesDeps {
  config: UploadConfig;
  service: UploadService;
  /** throws UnauthorizedError / ForbiddenError */
  authorize(auth: Auth, action: string): void;
}

const UPLOAD_ACTION = 'plugin::upload.content-api.upload';

export function createEntryUploads(d: EntryFilesDeps): EntryUploads {
  const discard = async (files: Entity[]) => {
    for (const f of files) await d.service.remove(f);
  };
  return {
    async read(ctx) {
      if (!ctx.raw) throw new BadRequestError('A multipart body can only be read from an HTTP request');
      const received = await receiveMultipart(ctx.raw.req, { limits: d.config.multipart, sizeLimit: d.config.sizeLimit, gate: d.config.uploads, acceptFile: () => true });
      return { fields: received.fields, files: received.files, cleanup: () => received.cleanup() };
    },
    async store(ctx, targets) {
      d.authorize(ctx.state.auth, UPLOAD_ACTION);
      // every type checked before anything is stored
      for (const t of targets) {
        for (const f of t.files) checkAllowedType({ ct: t.owner, attr: t.attr, id: 0 }, storedType(sniffType(f.head), f.fileName).mime, f.fileName);
      }
      const ids = new Map<string, number[]>();
      const stored: Entity[] = [];
      try {
        for (const t of targets) {
          const files = t.files.map((f) => ({ path: f.path, name: f.fileName, type: f.clientType, size: f.bytes, head: f.head, disposable: true }));
          const created = await d.service.upload({ data: {}, files });
          stored.push(...created);
          ids.set(t.path, created.map((e) => e.id));
        }
      } catch (err) {
        await discard(stored);
        throw err;
      }
      return { ids, discard: () => discard(stored) };
    },
  };
}
