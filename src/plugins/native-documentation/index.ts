// What Tessera's own upload and users-permissions plugins give @strapi/plugin-documentation, as their v4
// `register` does when that plugin is enabled: the content-API specification their package ships, as an override,
// their own types excluded from generation (so /upload/* and /auth/*, /users*, /users-permissions/* are documented
// as v4 documents them). The specifications are read from the project's installed packages, as v4 reads them
// (a v4 project has both: @strapi/strapi depends on them); one that is not installed is left out.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface OverrideService {
  registerOverride(spec: unknown, options: { pluginOrigin: string; excludeFromGeneration: string[] }): void;
}

interface PluginLookup {
  plugin(name: string): { service(name: string): unknown } | undefined;
}

/** [plugin, its package, the file under documentation/, whether v4 hands it over as text (YAML) or parsed (JSON)] */
const SPECS: Array<[plugin: string, pkg: string, file: string, text: boolean]> = [
  // v4's register order: upload (an internal plugin) before users-permissions
  ['upload', '@strapi/plugin-upload', 'content-api.json', false],
  ['users-permissions', '@strapi/plugin-users-permissions', 'content-api.yaml', true],
];

function installedSpec(projectDir: string, pkg: string, file: string, text: boolean): unknown {
  let dir: string;
  try {
    dir = path.dirname(createRequire(path.join(projectDir, 'package.json')).resolve(`${pkg}/package.json`));
  } catch {
    return undefined;
  }
  const specFile = path.join(dir, 'documentation', file);
  if (!fs.existsSync(specFile)) return undefined;
  const content = fs.readFileSync(specFile, 'utf8');
  return text ? content : JSON.parse(content);
}

/** v4 upload's and users-permissions' register, for the documentation plugin (once per start, before its bootstrap) */
export function registerNativeDocumentation(strapi: PluginLookup, projectDir: string): void {
  const documentation = strapi.plugin('documentation');
  if (!documentation) return;
  const override = documentation.service('override') as OverrideService | undefined;
  if (typeof override?.registerOverride !== 'function') return;
  for (const [plugin, pkg, file, text] of SPECS) {
    if (!strapi.plugin(plugin)) continue;
    const spec = installedSpec(projectDir, pkg, file, text);
    if (spec !== undefined) override.registerOverride(spec, { pluginOrigin: plugin, excludeFromGeneration: [plugin] });
  }
}
