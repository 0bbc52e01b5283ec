// The upload plugin: the /api/upload routes, `strapi.plugin('upload').service('upload')`, the provider
// (local first, any v4 provider package through `upload.config.provider`), image formats with sharp,
// multipart parsing (@fastify/multipart, streamed to disk) and the /uploads/* files.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import type { EntryUploads } from '../../rest/entry-uploads';
import { NotFoundError } from '../../errors';
import { visibleScalars } from '../../query/visibility';
import { resolvePublicFile, sendPublicFile, uploadsDirOf } from '../../server/static-files';
import { componentOwners } from './attach';
import { readUploadConfig, type UploadConfig } from './config';
import { createContentApi } from './content-api';
import { v4Controllers } from '../v4/v4-controllers';
import { createEntryUploads } from './entry-files';
import { createLibrary } from './library';
import { receiveMultipart, type ReceivedUpload } from './multipart';
import { createProvider, type UploadProvider } from './provider';
import { createMediaSigner, type MediaSigner } from './sign-entities';
import { createUploadService, FILE_UID, type UploadService } from './upload-service';

export interface UploadPlugin extends TesseraPlugin {
  config: UploadConfig;
  provider: UploadProvider;
  service: UploadService;
  /** a multipart request's fields and accepted files, streamed to a temporary folder (for entry writes with `files.<attribute>`) */
  readMultipart(req: FastifyRequest, acceptFile: (field: string) => boolean, onField?: (name: string, value: string) => void): Promise<ReceivedUpload>;
  /** multipart entry writes (`data` + `files.<path>`) on the content types' own routes */
  entryUploads: EntryUploads;
  /** signed media urls in entry results (REST core services, `strapi.entityService`) when the provider is private */
  media: MediaSigner;
}

export const UPLOADS_URL_PREFIX = '/uploads/';

export function createUploadPlugin(ctx: PluginContext): UploadPlugin {
  const { project, model, db, query, access, log } = ctx;
  const config = readUploadConfig(project, ctx.config);
  const uploadsDir = uploadsDirOf(project.publicDir);
  const provider = createProvider({
    name: config.provider, providerOptions: config.providerOptions, actionOptions: config.actionOptions,
    projectDir: project.dir, uploadsDir,
  });
  const fileType = model.require(FILE_UID);
  const visibility = { globalPrivate: new Set(project.config.get<string[]>('api.responses.privateAttributes', [])) };
  const pagination = {
    defaultLimit: Number(project.config.get('api.rest.defaultLimit', 25)),
    maxLimit: project.config.get<number | undefined>('api.rest.maxLimit', undefined),
    withCount: project.config.get<boolean>('api.rest.withCount', true) !== false,
  };
  const library = createLibrary(db, model, query);
  const media = createMediaSigner({ model, provider, providerName: config.provider, adminOnly: config.signAdminURLsOnly });
  const service = createUploadService({
    db, model, query, config, provider, library, log,
    attach: { model, owners: componentOwners(model), authorize: (auth, action) => access.rest.authorize(auth, action) },
    visibleFields: visibleScalars(fileType, visibility),
  });
  const api = createContentApi({
    fileType, service, config,
    queryContext: (rc) => ({ model, visibility, pagination, canRead: (uid) => access.rest.canRead(rc.state.auth, uid) }),
  });

  return {
    name: 'upload',
    config,
    provider,
    providerInstance: () => provider.instance,
    service,
    services: {
      upload: service,
      provider: {
        /** v4: `size` in KB against sizeLimit (the provider's own check when it has one) */
        checkFileSize: (file: { name: string; size: number }) => provider.checkFileSize(file, config.sizeLimit),
        upload: (file: Parameters<UploadProvider['store']>[0]) => provider.store(file),
      },
      'api-upload-folder': { getAPIUploadFolder: () => library.apiUploadFolder() },
    },
    entryUploads: createEntryUploads({ config, service, authorize: (auth, action) => access.rest.authorize(auth, action) }),
    readMultipart: (req, acceptFile, onField) => receiveMultipart(req, { limits: config.multipart, sizeLimit: config.sizeLimit, gate: config.uploads, acceptFile, onField }),
    v4: { routes: api.routers, controllers: v4Controllers({ 'content-api': api.controller }) },
    media,
    async bootstrap() {
      await library.bootstrap();
      await media.start(); // v4 asks isPrivate() once, at bootstrap
    },
    async server(app) {
      await app.register(fastifyMultipart, { throwFileSizeLimit: true, limits: { fileSize: config.multipart.maxFileSize, files: config.multipart.maxFiles } });
      // v4 serves public/uploads through the upload plugin (even with strapi::public off), max-age from localServer
      app.route({
        method: ['GET', 'HEAD'],
        url: `${UPLOADS_URL_PREFIX}*`,
        exposeHeadRoute: false, // HEAD answers from the file's stat, without reading it
        handler: async (req, reply) => {
          const rest = req.url.split('?')[0].slice(UPLOADS_URL_PREFIX.length - 1);
          const file = await resolvePublicFile(uploadsDir, rest);
          if (!file) throw new NotFoundError('Not Found');
          return sendPublicFile(req, reply, file, { maxAge: config.localMaxAgeMs / 1000, untrusted: true });
        },
      });
    },
  };
}
