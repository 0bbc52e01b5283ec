// `tessera <command>`: thin dispatch; the work lives in core/.
import { parseArgs } from './args';
import { develop } from './develop';
import { graphqlSchema } from './graphql-schema';
import { locales } from './locales';
import { start } from './start';
import { token } from './token';

const HELP = `tessera: the Strapi v4 Content API, fast and safe, from an unmodified v4 project

  tessera start [dir] [--host H] [--port P]     serve the project (default: current folder)
                [--workers N]                   in N processes sharing the port (default 1)
  tessera develop [dir] [--host H] [--port P]   same, restarting when src/ or config/ change
  tessera token create --name N --type full-access|read-only|custom [--permissions api::article.article.find,...]
                       [--lifespan 7|30|90] [--description D] [--dir DIR]
  tessera token list [--dir DIR]
  tessera token revoke <id|name> [--dir DIR]
  tessera locales list [--dir DIR]              the i18n locales (the default marked)
  tessera locales add <code> [--name N] [--dir DIR]
  tessera locales default <code> [--dir DIR]
  tessera graphql:schema [dir]                  print the project's GraphQL schema (SDL)

HOST, PORT and NODE_ENV are honoured as in Strapi v4 (through the project's config/server.js).`;

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const host = args.options.host;
  const port = args.options.port;
  if (typeof host === 'string') process.env.HOST = host;
  if (typeof port === 'string') process.env.PORT = port;
  switch (args.positional[0]) {
    case 'start':
      return start({ ...args, positional: args.positional.slice(1) });
    case 'develop':
      return develop({ ...args, positional: args.positional.slice(1) }, argv);
    case 'token':
      return token(args);
    case 'locales':
      return locales(args);
    case 'graphql:schema':
      return graphqlSchema(args);
    case undefined:
    case 'help':
      process.stdout.write(`${HELP}\n`);
      return args.positional[0] ? 0 : 2;
    default:
      process.stderr.write(`tessera: unknown command "${args.positional[0]}"\n${HELP}\n`);
      return 2;
  }
}
