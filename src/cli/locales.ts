// `tessera locales list|add <code> [--name N]|default <code>`: the i18n locales of a project, through the
// same `locales` service project bootstraps use (`strapi.plugin('i18n').service('locales')`).
import type { LocalesService } from '../plugins/i18n/locales-service';
import { optString, type Args } from './args';
import { withProject } from './open-project';

const USAGE = 'usage: tessera locales list [--dir DIR]\n       tessera locales add <code> [--name N] [--dir DIR]\n       tessera locales default <code> [--dir DIR]';
/** language[-script][-region] as in v4's ISO list: en, fr-FR, zh-Hans, sr-Latn-BA */
const LOCALE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;

export async function locales(args: Args): Promise<number> {
  const [, sub, code] = args.positional;
  if (!['list', 'add', 'default'].includes(sub ?? '') || (sub !== 'list' && !code)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (sub === 'add' && !LOCALE_CODE.test(code)) {
    process.stderr.write(`tessera: "${code}" is not a locale code (e.g. en, fr, fr-FR, zh-Hans)\n`);
    return 2;
  }
  return withProject(args, async (app) => {
    const service = app.strapi.plugin('i18n').service('locales') as LocalesService;
    if (sub === 'list') {
      for (const l of await service.setIsDefault(await service.find())) {
        process.stdout.write(`${String(l.code)}\t${String(l.name ?? '')}${l.isDefault ? '\t(default)' : ''}\n`);
      }
      return 0;
    }
    const existing = await service.findByCode(code);
    if (sub === 'add') {
      if (existing) { process.stderr.write(`tessera: locale "${code}" already exists\n`); return 1; }
      const name = optString(args, 'name') ?? code;
      await service.create({ code, name });
      process.stdout.write(`added locale ${code} (${name})\n`);
      return 0;
    }
    if (!existing) { process.stderr.write(`tessera: no locale "${code}" (add it first: tessera locales add ${code})\n`); return 1; }
    await service.setDefaultLocale({ code });
    process.stdout.write(`default locale is now ${code}\n`);
    return 0;
  });
}
