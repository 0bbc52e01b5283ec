// The graphql plugin (@strapi/plugin-graphql): on when the project has it as v4 does (a dependency in its
// package.json, or enabled in config/plugins.js); builds the shadow-CRUD schema once at start (after the
// project's register() set its switches on `strapi.plugin('graphql').service('extension')`), attaches the
// resolvers, and mounts the endpoint on the server.
import fs from 'node:fs';
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import type { Auth } from '../../auth/authenticate';
import type { CoreService } from '../../content/core-service';
import type { PaginationConfig } from '../../query/pagination';
import type { QueryContext } from '../../query/parse-query';
import { applyPluginSwitches, buildGraphqlSchema } from '../../graphql/schema/build-schema';
import { createExtensionService, type ExtensionService } from '../../graphql/extension/extension-service';
import type { Model } from '../../model/types';
import type { Project } from '../../project/load-project';
import { graphqlConfig } from '../../graphql/config';
import { GraphqlDoor } from '../../graphql/door';
import { attachResolvers } from '../../graphql/resolvers';
import { applyExtensions, extendSchema } from '../../graphql/extension/apply';
import { createFormatService } from '../../graphql/extension/responses';
import { createConstantsService, createUtilsService } from '../../graphql/extension/utils-service';
import { pruneSchema } from '../../graphql/schema/prune';
import { hookRegistry } from '../../rest/route-chain';
import { registerGraphqlEndpoint } from '../../graphql/endpoint';
import { maxJsonDepth } from '../../json-nesting';
import type { KeptAnswers } from '../../cache/kept-answers';
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
  /** the response cache, when on */
  keptAnswers?: KeptAnswers;
}

/** v4's extension service as the project's register() finds it: with the switches the other plugins set */
export function createGraphqlExtension(model: Model): ExtensionService {
  const extension = createExtensionService();
  applyPluginSwitches(extension, model);
  return extension;
}

/**
 * the project's schema, as served and as `tessera graphql:schema` prints it (the register() has run); with
 * `strapi`, the types of the registered extensions too; `prune: false`: the generated types only, all kept
 */
export function buildProjectSchema(project: Project, model: Model, extension: ExtensionService, options: { prune?: boolean; strapi?: unknown } = {}): GraphQLSchema {
  const registered = options.strapi === undefined ? [] : extension.registered();
  const shadowCRUD = project.config.get<unknown>('plugin.graphql.shadowCRUD', true) !== false;
  // v4 switches the admin's types off on the service when it builds the schema: extension factories see that
  if (shadowCRUD) for (const uid of model.contentTypes.keys()) if (uid.startsWith('admin::')) extension.shadowCRUD(uid).disable();
  const schema = buildGraphqlSchema(model, {
    shadowCRUD,
    privateAttributes: project.config.get<string[]>('api.responses.privateAttributes', []),
    extension,
    prune: registered.length === 0 && options.prune !== false,
  });
  return registered.length ? pruneSchema(extendSchema(schema, registered, model, options.strapi).schema) : schema;
}

export function createGraphqlPlugin(ctx: PluginContext, deps: () => GraphqlPluginDeps): TesseraPlugin {
  // the instance's environment (createTessera's `env`), as the project's config sees it
  const production = ctx.project.config.get<string>('environment', 'development') === 'production';
  const config = graphqlConfig((key) => ctx.config(key, undefined), production);
  // created with the plugin, i.e. before the project's register()
  const extension = createGraphqlExtension(ctx.model);
  /** the extensions registered before the plugins' bootstrap: v4 builds the schema there, so later use() calls are ignored */
  let registered: unknown[] | undefined;
  return {
    name: 'graphql',
    // v4's services that extensions and custom resolvers use
    services: { extension, format: createFormatService(), utils: createUtilsService(ctx.model), constants: createConstantsService() },
    async bootstrap() {
      registered = extension.registered();
    },
    async server(app) {
      registered ??= extension.registered();
      // with extensions, every generated type is kept until they are merged in (v4 prunes last)
      const generated = buildProjectSchema(ctx.project, ctx.model, extension, { prune: registered.length === 0 });
      const { route, upload, usersPermissions, keptAnswers, ...core } = deps();
      const door = new GraphqlDoor({ model: ctx.model, config, access: ctx.access.rest, log: ctx.log, ...core });
      const authReplaced = new Set<string>();
      const reads = new Map<string, { uid: string; resolve: unknown }>();
      const crudScopes = attachResolvers(generated, door, { authReplaced, reads });
      const upController = (name: string) => (ctx.strapi() as { plugin(n: string): { controller(c: string): Record<string, unknown> | undefined } }).plugin('users-permissions').controller(name);
      attachUsersPermissions(generated, door, {
        action: (controller, action) => {
          const c = upController(controller);
          const fn = c?.[action];
          return typeof fn === 'function' ? async (rctx) => {
            usersPermissions.limitAction(`${controller}.${action}`, rctx);
            return fn.call(c, rctx);
          } : undefined;
        },
        emailConfirmation: usersPermissions.controllers.auth.emailConfirmation,
      });
      attachUpload(generated, door, upload);
      attachI18n(generated, door, { route });
      const strapi = ctx.strapi as () => { entityService: { count(uid: string, params: Record<string, unknown>): Promise<number> } };
      const schema = registered.length === 0 ? generated : applyExtensions(generated, registered, {
        door, strapi, hooks: hookRegistry(ctx.project, strapi), crudScopes, authReplaced,
        count: (uid, params) => strapi().entityService.count(uid, params),
      });
      if (config.ignored.length) ctx.log.info(`graphql: ${config.ignored.join(', ')} ha${config.ignored.length > 1 ? 've' : 's'} no effect in Tessera`);
      // answers the response cache may keep: shadow-CRUD reads whose resolvers nothing replaced, in a schema no
      // extension changed (a field an extension adds to a type resolves with code the cache cannot see)
      const queryFields = schema.getQueryType()?.getFields() ?? {};
      const readFields = new Map([...reads].filter(([name, r]) => registered!.length === 0 && queryFields[name]?.resolve === r.resolve).map(([name, r]) => [name, r.uid]));
      const jsonDepth = maxJsonDepth((key) => ctx.project.config.get(key, undefined));
      await registerGraphqlEndpoint(app, {
        kept: keptAnswers && readFields.size ? { answers: keptAnswers, reads: readFields } : undefined,
        schema, config, access: ctx.access.rest, log: ctx.log, playground: !production || config.playgroundAlways,
        maxJsonDepth: jsonDepth,
        multipart: { read: (req) => readGraphqlMultipart(req, upload, jsonDepth), errorBody: multipartErrorBody },
      });
    },
  };
}
