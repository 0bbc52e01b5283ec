// The upload extension of v4's GraphQL plugin: `FileInfoInput` and the upload, multipleUpload, updateFileInfo
// and removeFile mutations (files arrive in the GraphQL multipart request format as `Upload` scalars).
import { GraphQLID, GraphQLInputObjectType, GraphQLString } from 'graphql';
import type { SchemaContext } from '../context';
import { list, nonNull } from '../registry';

export function registerUpload(ctx: SchemaContext): void {
  if (!ctx.isEnabled('plugin::upload.file')) return;
  const { types } = ctx;
  const info = types.register(new GraphQLInputObjectType({
    name: 'FileInfoInput',
    fields: { name: { type: GraphQLString }, alternativeText: { type: GraphQLString }, caption: { type: GraphQLString } },
  }));
  const response = types.output('UploadFileEntityResponse');
  const upload = types.input('Upload');
  const target = { refId: { type: GraphQLID }, ref: { type: GraphQLString }, field: { type: GraphQLString } };
  types.addMutation('upload', { type: nonNull(response), args: { ...target, info: { type: info }, file: { type: nonNull(upload) } } });
  types.addMutation('multipleUpload', { type: nonNull(list(response)), args: { ...target, files: { type: nonNull(list(upload)) } } });
  types.addMutation('updateFileInfo', { type: nonNull(response), args: { id: { type: nonNull(GraphQLID) }, info: { type: info } } });
  types.addMutation('removeFile', { type: response, args: { id: { type: nonNull(GraphQLID) } } });
}
