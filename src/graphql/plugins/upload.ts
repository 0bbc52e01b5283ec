// The upload plugin's GraphQL side: the GraphQL multipart request format on the endpoint
// (https://github.com/jaydenseric/graphql-multipart-request-spec: `operations`, then `map`, then the files),
// read with the REST uploads' reader and limits (files streamed to a temporary folder, removed when the answer
// is sent), the `Upload` scalar, and v4's upload, multipleUpload, updateFileInfo and removeFile over the upload
// service (UPLOAD:server/graphql.js). Unlike v4, attaching with ref/refId/field and changing a file's info
// follow `upload.config.security.requireEntryUpdate` as REST does.
import type { FastifyRequest } from 'fastify';
import { GraphQLError, GraphQLScalarType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { BadRequestError, PayloadTooLargeError, ValidationError, toErrorBody } from '../../errors';
import { DEFAULT_MAX_JSON_DEPTH, jsonTextTooDeep, tooDeepMessage } from '../../json-nesting';
import type { Entity } from '../../query/types';
import type { UploadPlugin } from '../../plugins/upload';
import type { ReceivedFile } from '../../plugins/upload/multipart';
import type { IncomingFile } from '../../plugins/upload/upload-service';
import type { GraphqlContext } from '../context';
import type { GraphqlDoor } from '../door';
import { entryOf } from '../shape';

const FILE = 'plugin::upload.file';
const ACTION = 'plugin::upload.content-api';
const SPEC = 'https://github.com/jaydenseric/graphql-multipart-request-spec';

/**
 * A file of a multipart request, where `map` placed it in the operation. Only the multipart reader makes
 * them (a JSON body cannot), so a temporary path reaches the upload service from nowhere else.
 */
export class GraphqlUpload {
  /** the part, once it arrived (a file `map` names may never come: an error only where it is used) */
  file?: ReceivedFile;
  /** how many places `map` put it in: a file used once may be moved by the provider instead of copied */
  uses = 0;
  /** in a message (a file placed where another type is expected), never the server's temporary path */
  toJSON(): string {
    return 'Upload';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Upload';
  }
}

/** a request that does not follow the multipart request format (answered as graphql-upload's http errors are) */
class MultipartSpecError extends BadRequestError {}

const spec = (message: string) => new MultipartSpecError(`${message} (${SPEC}).`);

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `operations` at `path` (`variables.files.0`) := value; intermediate objects made as object-path makes them */
function placeAt(operations: Record<string, unknown>, path: string, value: unknown): boolean {
  const keys = path.split('.');
  if (keys.some((k) => k === '' || UNSAFE_KEYS.has(k))) return false;
  let node: Record<string, unknown> = operations;
  for (const [i, key] of keys.entries()) {
    // a list grows by at most one place: an index far past its end would make a huge sparse list
    if (Array.isArray(node) && (!/^\d+$/.test(key) || Number(key) > node.length)) return false;
    if (i === keys.length - 1) {
      node[key] = value;
      return true;
    }
    let next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === undefined || next === null) node[key] = next = /^\d+$/.test(keys[i + 1]) ? [] : {};
    if (typeof next !== 'object') return false;
    node = next as Record<string, unknown>;
  }
  return false;
}

/** a JSON field of the format; as deep as a JSON body may be (json-nesting.ts): deeper text is refused unparsed */
function parseJsonField(name: string, value: string, maxDepth: number): unknown {
  if (jsonTextTooDeep(value, maxDepth)) throw new ValidationError(tooDeepMessage(`The ‘${name}’ multipart field`, maxDepth));
  try {
    return JSON.parse(value);
  } catch {
    throw spec(`Invalid JSON in the ‘${name}’ multipart field`);
  }
}

export interface GraphqlMultipart {
  /** `{ query, variables, operationName }` (or a batch of them) with each file at its mapped places */
  body: unknown;
  /** removes the temporary files (after the answer) */
  cleanup(): Promise<void>;
}

/** Reads a GraphQL multipart request with the REST uploads' reader and limits. */
export async function readGraphqlMultipart(req: FastifyRequest, upload: Pick<UploadPlugin, 'readMultipart' | 'config'>, maxJsonDepth = DEFAULT_MAX_JSON_DEPTH): Promise<GraphqlMultipart> {
  let operations: Record<string, unknown> | undefined;
  let map: Map<string, GraphqlUpload> | undefined;
  const onField = (name: string, value: string) => {
    if (name === 'operations') {
      if (operations) return; // the first one counts
      const parsed = parseJsonField('operations', value, maxJsonDepth);
      // an object, or an array of them (a batch: map paths then start with the operation's index)
      if (typeof parsed !== 'object' || parsed === null) throw spec('Invalid type for the ‘operations’ multipart field');
      operations = parsed as Record<string, unknown>;
    } else if (name === 'map') {
      if (map) return;
      if (!operations) throw spec('Misordered multipart fields; ‘map’ should follow ‘operations’');
      const parsed = parseJsonField('map', value, maxJsonDepth);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw spec('Invalid type for the ‘map’ multipart field');
      const entries = Object.entries(parsed);
      if (entries.length > upload.config.multipart.maxFiles) throw new PayloadTooLargeError('Too many files in one request');
      const uploads = new Map<string, GraphqlUpload>();
      for (const [key, paths] of entries) {
        if (!Array.isArray(paths)) throw spec(`Invalid type for the ‘map’ multipart field entry key ‘${key}’ array`);
        const file = new GraphqlUpload();
        uploads.set(key, file);
        for (const [index, path] of paths.entries()) {
          if (typeof path !== 'string') throw spec(`Invalid type for the ‘map’ multipart field entry key ‘${key}’ array index ‘${index}’ value`);
          if (!placeAt(operations, path, file)) throw spec(`Invalid object path for the ‘map’ multipart field entry key ‘${key}’ array index ‘${index}’ value ‘${path}’`);
          file.uses += 1;
        }
      }
      map = uploads;
    }
    // any other field has no meaning in the format: ignored, as graphql-upload ignores it
  };
  const arrived = new Set<string>();
  const acceptFile = (field: string) => {
    if (!map) throw spec('Misordered multipart fields; files should follow ‘map’');
    // a file `map` does not name, or a second part under one name, is read and dropped
    if (!map.has(field) || arrived.has(field)) return false;
    arrived.add(field);
    return true;
  };
  const received = await upload.readMultipart(req, acceptFile, onField);
  try {
    if (!operations) throw spec('Missing multipart field ‘operations’');
    if (!map) throw spec('Missing multipart field ‘map’');
    for (const file of received.files) map.get(file.field)!.file = file;
  } catch (err) {
    await received.cleanup();
    throw err;
  }
  return { body: operations, cleanup: received.cleanup };
}

/** The answer to a multipart request that could not be read: the REST error envelope (v4: its koa error body). */
export function multipartErrorBody(err: unknown): { status: number; body: unknown } {
  const { status, body } = toErrorBody(err);
  if (err instanceof MultipartSpecError) {
    // graphql-upload's http errors carry no details
    const { details: _details, ...error } = body.error;
    void _details;
    return { status, body: { data: null, error } };
  }
  return { status, body };
}

type Args = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

/** the file of an `Upload` argument, for the upload service */
function incoming(value: unknown): IncomingFile {
  const file = value instanceof GraphqlUpload ? value.file : undefined;
  if (!file) throw new BadRequestError('File missing in the request.');
  return { path: file.path, name: file.fileName, type: file.clientType, size: file.bytes, head: file.head, disposable: (value as GraphqlUpload).uses === 1 };
}

/** an optional String/ID argument: absent and null both mean "not given" */
const given = (v: unknown): unknown => (v === null ? undefined : v);

/** `FileInfoInput` (graphql-js may hand it over without a prototype) */
const infoOf = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? { ...(v as Args) } : {});

/** `Upload` as graphql-upload's scalar: only files of the multipart request, never a literal */
function configureUploadScalar(schema: GraphQLSchema): void {
  const scalar = schema.getType('Upload');
  if (!(scalar instanceof GraphQLScalarType)) return;
  scalar.parseValue = (value: unknown) => {
    if (value instanceof GraphqlUpload) return value;
    throw new GraphQLError('Upload value invalid.');
  };
  scalar.parseLiteral = (ast) => {
    throw new GraphQLError('Upload literal unsupported.', { nodes: ast });
  };
  scalar.serialize = () => {
    throw new GraphQLError('Upload serialization unsupported.');
  };
}

export function attachUpload(schema: GraphQLSchema, door: GraphqlDoor, upload: Pick<UploadPlugin, 'service'>): void {
  configureUploadScalar(schema);
  const mutation = schema.getMutationType()?.getFields() ?? {};
  if (!mutation.upload) return; // the file type is not in the schema
  const { service } = upload;
  const fileType = door.model.require(FILE);
  const response = (file: Entity) => ({ data: entryOf(door.model, fileType, file, true) });
  const scoped = (action: string, resolve: Resolver): Resolver => (parent, args, ctx, info) => {
    door.authorize(ctx.auth, `${ACTION}.${action}`);
    return resolve(parent, args, ctx, info);
  };
  const target = (args: Args) => ({ ref: given(args.ref), refId: given(args.refId), field: given(args.field) });

  const resolvers: Record<string, Resolver> = {
    upload: scoped('upload', async (_p, args, ctx) => {
      const [file] = await service.upload({ data: { fileInfo: infoOf(args.info), ...target(args) }, files: [incoming(args.file)] }, { auth: ctx.auth });
      return response(file);
    }),
    // v4 takes no file info here
    multipleUpload: scoped('upload', async (_p, args, ctx) => {
      const list = Array.isArray(args.files) ? args.files : [];
      if (!list.length) throw new ValidationError('Files are empty');
      const files = await service.upload({ data: target(args), files: list.map(incoming) }, { auth: ctx.auth });
      return files.map(response);
    }),
    // v4 fails without `info` (it destructures it); here that changes nothing
    updateFileInfo: scoped('upload', async (_p, args, ctx) => response(await service.updateFileInfo(args.id, infoOf(args.info), { auth: ctx.auth }))),
    removeFile: scoped('destroy', async (_p, args) => {
      const file = await service.findOne(args.id);
      if (!file) return null;
      await service.remove(file);
      return response(file);
    }),
  };
  for (const [name, resolve] of Object.entries(resolvers)) if (mutation[name]) mutation[name].resolve = resolve as never;
}
