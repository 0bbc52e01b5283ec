// `tessera graphql:schema [dir]`: prints the GraphQL SDL the project's schema has (graphql-js printSchema,
// the way shared/tools/dump-sdl.js prints what a running v4 serves).
import { printSchema } from 'graphql';
import { buildGraphqlSchema } from '../graphql/schema/build-schema';
import type { Args } from './args';
import { withProject } from './open-project';

export async function graphqlSchema(args: Args): Promise<number> {
  const dir = args.positional[1];
  const projectArgs: Args = dir ? { ...args, options: { ...args.options, dir } } : args;
  return withProject(projectArgs, async (app) => {
    const { config } = app.project;
    const schema = buildGraphqlSchema(app.model, {
      shadowCRUD: config.get<unknown>('plugin.graphql.shadowCRUD', true) !== false,
      privateAttributes: config.get<string[]>('api.responses.privateAttributes', []),
    });
    process.stdout.write(`${printSchema(schema)}\n`);
    return 0;
  });
}
