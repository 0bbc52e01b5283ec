// `tessera token create|list|revoke`: API tokens of a project, through the same admin::api-token service.
import { optString, type Args } from './args';
import { withProject } from './open-project';
import { ApplicationError } from '../errors';

const DAY = 24 * 60 * 60 * 1000;
const USAGE = 'usage: tessera token create --name N --type full-access|read-only|custom [--lifespan 7|30|90] [--permissions a,b] [--description D] [--dir DIR]\n       tessera token list [--dir DIR]\n       tessera token revoke <id|name> [--dir DIR]';

export async function token(args: Args): Promise<number> {
  const [, sub, target] = args.positional;
  return withProject(args, async (app) => {
    const tokens = app.strapi.service('admin::api-token') as {
      create(a: Record<string, unknown>): Promise<{ id: number; accessKey: string; name: string; type: string; expiresAt: unknown }>;
      list(): Promise<Array<{ id: number; name: string; type: string; expiresAt: unknown; lastUsedAt: unknown }>>;
      getByName(n: string): Promise<{ id: number } | null>;
      revoke(id: number): Promise<unknown>;
    };
    try {
      if (sub === 'create') {
        const name = optString(args, 'name');
        const type = optString(args, 'type') ?? 'read-only';
        if (!name) { process.stderr.write(`${USAGE}\n`); return 2; }
        if (!['full-access', 'read-only', 'custom'].includes(type)) { process.stderr.write(`tessera: --type must be full-access, read-only or custom\n`); return 2; }
        const days = optString(args, 'lifespan');
        if (days !== undefined && !/^\d+$/.test(days)) { process.stderr.write('tessera: --lifespan is a number of days\n'); return 2; }
        const permissions = optString(args, 'permissions')?.split(',').map((s) => s.trim()).filter(Boolean);
        if (type === 'custom' && !permissions?.length) { process.stderr.write('tessera: a custom token needs --permissions\n'); return 2; }
        if (await tokens.getByName(name)) { process.stderr.write(`tessera: a token named "${name}" already exists\n`); return 1; }
        const t = await tokens.create({ name, type, description: optString(args, 'description') ?? '', lifespan: days ? Number(days) * DAY : null, permissions });
        process.stdout.write(`created ${t.type} token "${t.name}" (id ${t.id})${t.expiresAt ? `, expires ${String(t.expiresAt)}` : ''}\nthis is the only time it is shown:\n${t.accessKey}\n`);
        return 0;
      }
      if (sub === 'list') {
        for (const t of await tokens.list()) {
          process.stdout.write(`${t.id}\t${t.name}\t${t.type}\texpires: ${t.expiresAt ?? 'never'}\tlast used: ${t.lastUsedAt ?? 'never'}\n`);
        }
        return 0;
      }
      if (sub === 'revoke' && target) {
        const id = /^\d+$/.test(target) ? Number(target) : (await tokens.getByName(target))?.id;
        if (id === undefined || !(await tokens.revoke(id))) { process.stderr.write(`tessera: no token "${target}"\n`); return 1; }
        process.stdout.write(`revoked token ${target}\n`);
        return 0;
      }
      process.stderr.write(`${USAGE}\n`);
      return 2;
    } catch (err) {
      if (err instanceof ApplicationError) {
        process.stderr.write(`tessera: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  });
}
