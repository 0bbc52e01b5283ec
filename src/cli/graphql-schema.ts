// `tessera graphql:schema [dir]`: prints the GraphQL SDL the project's schema has (graphql-js printSchema,
// the way shared/tools/dump-sdl.js prints what a running v4 serves), after the project's register(), whose
// shadow-CRUD switches and extensions shape it. The project is opened without serving it: the bootstrap does
// not run (v4 builds the schema before the project's bootstrap too).
import { printSchema } from 'graphql';
import type { ExtensionService } from '../graphql/extension/extension-service';
import { buildProjectSchema, createGraphqlExtension } from '../plugins/graphql';
import type { Args } from './args';
import { withProject } from './open-project';

export async function graphqlSchema(args: Args): Promise<number> {
  const dir = args.positional[1];
  const projectArgs: Args = dir ? { ...args, options: { ...args.options, dir } } : args;
  return withProject(projectArgs, async (app) => {
    await app.project.app.register?.({ strapi: app.strapi });
    // a project without the graphql plugin has no extension service: the schema it would get
    const extension = (app.strapi.plugin('graphql').service('extension') as ExtensionService | undefined) ?? createGraphqlExtension(app.model);
    // with `strapi`, the extensions the register() handed to use() are applied too
    process.stdout.write(`${printSchema(buildProjectSchema(app.project, app.model, extension, { strapi: app.strapi }))}\n`);
    return 0;
  });
}
