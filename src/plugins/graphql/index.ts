// The graphql plugin (@strapi/plugin-graphql): on when the project has it as v4 does (a dependency in its
// package.json, or enabled in config/plugins.js); builds the shadow-CRUD schema once at start, attaches the
// resolvers, and mounts the endpoint on the server.
import fs from 'node:fs';
import path from 'node:path';
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import type { Auth } from '../../auth/authenticate';
import type { CoreService } from '../../content/core-service';
import type { PaginationConfig } from '../../query/pagination';
import type { QueryContext } from '../../query/parse-query';
import { buildGraphqlSchema } from '../../graphql/schema/build-schema';
import { graphqlConfig } from '../../graphql/config';
import { GraphqlDoor } from '../../graphql/door';
import { attachResolvers } from '../../graphql/resolvers';
import { registerGraphqlEndpoint } from '../../graphql/endpoint';
import { attachI18n } from '../../graphql/plugins/i18n';
import { attachUpload, multipartErrorBody, readGraphqlMultipart } from '../../graphql/plugins/upload';
import { attachUsersPermissions } from '../../graphql/plugins/users-permissions';
import type { HttpMethod, RouteDef } from '../../rest/routes';
import type { UploadPlugin } from '../upload';
import type { UsersPermissionsPlugin } from '../users-permissions';

export const GRAPHQL_PACKAGE = '@strapi/plugin-graphql';

/** v4 loads a plugin listed in package.json dependencies, or one config/plugins.js enables; `enabled: false` wins */
export function graphqlEnabled(ctx: Pick<PluginContext, 'project'>): boolean {
  const entry = ctx.project.config.plugins.graphql;
  if (entry && entry.enabled === false) return false;
  if (entry && entry.enabled === true) return true;
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(ctx.project.dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return Boolean(pkg.dependencies?.[GRAPHQL_PACKAGE]);
  } catch {
    return false;
  }
}

export interface GraphqlPluginDeps {
  queryContextFor(auth: Auth, paging: PaginationConfig): QueryContext;
  coreService(uid: string): CoreService;
  /** config/api.js `rest.jsonReads` */
  jsonReads: boolean;
  /** a content-API route's handler by method and path below the REST prefix (the plugins' mutations call them) */
  route(method: HttpMethod, path: string): RouteDef['handler'] | undefined;
  upload: UploadPlugin;
  usersPermissions: UsersPermissionsPlugin;
}

export function createGraphqlPlugin(ctx: PluginContext, deps: () => GraphqlPluginDeps): TesseraPlugin {
  // the instance's environment (createTessera's `env`), as the project's config sees it
  const production = ctx.project.config.get<string>('environment', 'development') === 'production';
  const config = graphqlConfig((key) => ctx.config(key, undefined), production);
  return {
    name: 'graphql',
    async server(app) {
      const privateAttributes = ctx.project.config.get<string[]>('api.responses.privateAttributes', []);
      const schema = buildGraphqlSchema(ctx.model, { shadowCRUD: config.shadowCRUD, privateAttributes });
      const { route, upload, usersPermissions, ...core } = deps();
      const door = new GraphqlDoor({ model: ctx.model, config, access: ctx.access.rest, log: ctx.log, ...core });
      attachResolvers(schema, door);
      attachUsersPermissions(schema, door, { route, emailConfirmation: usersPermissions.controllers.auth.emailConfirmation });
      attachUpload(schema, door, upload);
      attachI18n(schema, door, { route });
      if (config.ignored.length) ctx.log.info(`graphql: ${config.ignored.join(', ')} ha${config.ignored.length > 1 ? 've' : 's'} no effect in Tessera`);
      await registerGraphqlEndpoint(app, {
        schema, config, access: ctx.access.rest, log: ctx.log, playground: !production || config.playgroundAlways,
        multipart: { read: (req) => readGraphqlMultipart(req, upload), errorBody: multipartErrorBody },
      });
    },
  };
}
