// Which plugins a v4 project enables, as v4's getEnabledPlugins finds them: packages of the project's
// package.json `dependencies` whose own package.json says `strapi.kind: "plugin"` (named by `strapi.name`),
// then config/plugins.js declarations (`name: true | false | { enabled, resolve, config }`), a declaration
// winning over the package of the same folder; `enabled: false` removes a plugin.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Project } from '../../project/load-project';
import { ProjectError } from '../../project/errors';

export interface PluginDeclaration {
  /** the v4 plugin name (`strapi.name` of its package.json, or the config/plugins.js key) */
  name: string;
  /** the plugin's folder; absent for a plugin declared without `resolve` and not installed (a built-in one) */
  dir?: string;
  /** the npm package, for installed plugins */
  packageName?: string;
  /** declared with `resolve` in config/plugins.js */
  local: boolean;
}

/** the official plugins Tessera implements itself, by package */
const TESSERA_PACKAGES: Record<string, string> = {
  '@strapi/plugin-users-permissions': 'users-permissions',
  '@strapi/plugin-i18n': 'i18n',
  '@strapi/plugin-graphql': 'graphql',
  '@strapi/plugin-upload': 'upload',
  '@strapi/plugin-email': 'email',
};

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const strapiInfo = (pkg: Record<string, unknown> | undefined) => pkg?.strapi as { kind?: unknown; name?: unknown } | undefined;

function assertName(name: string, file: string): void {
  if (!KEBAB.test(name)) throw new ProjectError(`Plugin name "${name}" is not in kebab (an-example-of-kebab-case)`, file);
}

/** Installed plugins: the project's dependencies that are Strapi plugins (resolved from the project folder). */
function installedPlugins(project: Project): PluginDeclaration[] {
  const pkg = readJson(path.join(project.dir, 'package.json'));
  const deps = Object.keys((pkg?.dependencies as Record<string, string> | undefined) ?? {});
  const req = createRequire(path.join(project.dir, 'package.json'));
  const out: PluginDeclaration[] = [];
  for (const dep of deps) {
    let file: string;
    try {
      file = req.resolve(`${dep}/package.json`);
    } catch {
      // v4 skips what it cannot require; Tessera's own plugins need no install (the project's node_modules may be absent)
      if (TESSERA_PACKAGES[dep]) out.push({ name: TESSERA_PACKAGES[dep], packageName: dep, local: false });
      continue;
    }
    const info = strapiInfo(readJson(file));
    if (info?.kind !== 'plugin' || typeof info.name !== 'string') continue;
    assertName(info.name, file);
    out.push({ name: info.name, dir: path.dirname(file), packageName: dep, local: false });
  }
  return out;
}

/** v4 `toDetailedDeclaration`: `resolve` is a module path or package, else a folder relative to the project. */
function resolveDir(project: Project, resolve: string, file: string): string {
  // a relative or absolute path is a folder (v4's require.resolve of it fails from its own module and falls back
  // to the project folder): never its package's `main`
  if (resolve.startsWith('.') || path.isAbsolute(resolve)) {
    const dir = path.resolve(project.dir, resolve);
    if (fs.existsSync(dir) && fs.statSync(dir).isDirectory()) return dir;
    if (fs.existsSync(dir)) return path.dirname(dir);
    throw new ProjectError(`${resolve} couldn't be resolved`, file);
  }
  try {
    return path.dirname(createRequire(path.join(project.dir, 'package.json')).resolve(resolve));
  } catch {
    const dir = path.resolve(project.dir, resolve);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new ProjectError(`${resolve} couldn't be resolved`, file);
    return dir;
  }
}

/** In v4's order: config/plugins.js declarations in their order, then the installed plugins not declared. */
export function enabledPlugins(project: Project): PluginDeclaration[] {
  const file = path.join(project.dir, 'config/plugins.js');
  const installed = installedPlugins(project);
  const declared: Array<PluginDeclaration & { enabled: boolean }> = [];
  for (const [name, entry] of Object.entries(project.config.plugins)) {
    assertName(name, file);
    const e = typeof entry === 'boolean' ? { enabled: entry } : (entry ?? {});
    const dir = typeof e.resolve === 'string' ? resolveDir(project, e.resolve, file) : undefined;
    // a declaration completes (or disables) the installed plugin of the same name
    const same = installed.find((p) => p.name === name);
    declared.push({ name, dir: dir ?? same?.dir, packageName: dir ? undefined : same?.packageName, local: dir !== undefined, enabled: e.enabled !== false });
  }
  const declaredNames = new Set(declared.map((d) => d.name));
  const declaredDirs = new Set(declared.filter((d) => d.local).map((d) => d.dir));
  const rest = installed.filter((p) => !declaredNames.has(p.name) && (p.dir === undefined || !declaredDirs.has(p.dir)));
  return [...declared.filter((d) => d.enabled).map(({ enabled: _e, ...p }) => p), ...rest];
}
