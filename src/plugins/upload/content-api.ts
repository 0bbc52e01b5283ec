// The Content-API routes of the upload plugin, answering as v4 does: plain bodies (no `data` envelope),
// 404 `file.notFound`, "Files are empty", multipart parsed here from the raw request so files stream to
// disk. Permission actions `plugin::upload.content-api.<find|findOne|upload|destroy>` go through the
// common access check before the body is read.
import { NotFoundError, ValidationError } from '../../errors';
import type { ContentType } from '../../model/types';
import { parseFields } from '../../query/parse-fields';
import { parseFilters } from '../../query/parse-filters';
import { parsePopulate } from '../../query/parse-populate';
import type { QueryContext } from '../../query/query-context';
import type { FindParams } from '../../query/types';
import type { RequestContext } from '../../rest/context';
import { parseSort } from '../../query/parse-sort';
import type { UploadConfig } from './config';
import { parseFileInfo, singleField } from './file-info';
import { receiveMultipart, type ReceivedUpload } from './multipart';
import type { UploadService } from './upload-service';


export interface ContentApiDeps {
  fileType: ContentType;
  service: UploadService;
  config: UploadConfig;
  queryContext(ctx: RequestContext): QueryContext;
}

/** 2^63: SQLite binds a larger number as a float, which LIMIT/OFFSET refuse (v4 answers 500 there) */
const INT64_END = 2 ** 63;

/** a whole number from `min` to 2^63-1 (lodash toNumber, as v4); larger than 2^53 means the same rows as 2^53 */
function pageInt(v: unknown, name: string, min: number): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new ValidationError(`Invalid ${name} parameter: expected a whole number`);
  if (n < min || n >= INT64_END) throw new ValidationError(`Invalid ${name} parameter: expected a whole number from ${min} to 9223372036854775807`);
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/** v4 passes the query to the entity service: filters, sort, fields, populate, and top-level start/limit (no pagination meta) */
export function parseFilesQuery(qc: QueryContext, ct: ContentType, raw: Record<string, unknown>): FindParams {
  const params: FindParams = {
    select: parseFields(qc, ct, raw.fields),
    populate: parsePopulate(qc, ct, raw.populate),
    where: parseFilters(qc, ct, raw.filters),
    orderBy: parseSort(qc, ct, raw.sort),
  };
  const start = pageInt(raw.start, 'start', 0);
  const limit = pageInt(raw.limit, 'limit', -1);
  if (start !== undefined && start > 0) params.offset = start;
  if (limit !== undefined && limit > 0) params.limit = limit; // v4: -1 and 0 both mean no limit
  return params;
}

function isMultipart(ctx: RequestContext): boolean {
  return /^multipart\/form-data/i.test(String(ctx.request.headers['content-type'] ?? ''));
}

export function createContentApi(d: ContentApiDeps) {
  const { service } = d;
  const controller = {
    async find(ctx: RequestContext) {
      return service.findMany(parseFilesQuery(d.queryContext(ctx), d.fileType, ctx.query));
    },
    async findOne(ctx: RequestContext) {
      // v4 validates the whole query but uses only `populate`
      const params = parseFilesQuery(d.queryContext(ctx), d.fileType, ctx.query);
      const file = await service.findOne(ctx.params.id, params.populate);
      if (!file) throw new NotFoundError('file.notFound');
      return file;
    },
    async destroy(ctx: RequestContext) {
      const file = await service.findOne(ctx.params.id);
      if (!file) throw new NotFoundError('file.notFound');
      await service.remove(file);
      return file;
    },
    async upload(ctx: RequestContext) {
      const id = ctx.query.id;
      let received: ReceivedUpload | undefined;
      let fields: Record<string, unknown> = {};
      if (isMultipart(ctx) && ctx.raw) {
        received = await receiveMultipart(ctx.raw.req, { limits: d.config.multipart, sizeLimit: d.config.sizeLimit, gate: d.config.uploads, acceptFile: (field) => field === 'files' });
        fields = received.fields;
      } else if (ctx.request.body && typeof ctx.request.body === 'object' && !Array.isArray(ctx.request.body)) {
        fields = ctx.request.body as Record<string, unknown>;
      }
      try {
        const files = (received?.files ?? []).map((f) => ({ path: f.path, name: f.fileName, type: f.clientType, size: f.bytes, head: f.head, disposable: true }));
        if (!files.length) {
          if (id !== undefined && id !== '') return await service.updateFileInfo(id, parseFileInfo(fields.fileInfo, false) as never, { auth: ctx.state.auth });
          throw new ValidationError('Files are empty');
        }
        if (id !== undefined && id !== '') {
          if (files.length > 1) throw new ValidationError('Cannot replace a file with multiple ones');
          const fileInfo = parseFileInfo(fields.fileInfo, false) as never;
          return await service.replace(id, { data: { fileInfo }, file: files[0] }, { auth: ctx.state.auth });
        }
        const fileInfo = parseFileInfo(fields.fileInfo, files.length > 1);
        const one = (k: string) => singleField(fields[k] as string | string[] | undefined);
        return await service.upload({ data: { fileInfo, ref: one('ref'), refId: one('refId'), field: one('field') }, files }, { auth: ctx.state.auth });
      } finally {
        await received?.cleanup();
      }
    },
  };

  // v4's route table (upload/server/routes/content-api.js): served from the plugin's v4 module, below `/upload`
  const routers = {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'POST', path: '/', handler: 'content-api.upload' },
        { method: 'GET', path: '/files', handler: 'content-api.find' },
        { method: 'GET', path: '/files/:id', handler: 'content-api.findOne' },
        { method: 'DELETE', path: '/files/:id', handler: 'content-api.destroy' },
      ],
    },
  };
  return { controller, routers };
}
