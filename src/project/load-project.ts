// A Strapi v4 project folder -> everything later stages need: config, schemas, API modules, app hooks.
import fs from 'node:fs';
import path from 'node:path';
import type { ModelSource } from '../model/build-model';
import type { RawSchema } from '../model/types';
import { loadConfig } from './config';
import type { ConfigStore } from './config-store';
import { loadDotenv } from './dotenv';
import { createEnv, type EnvHelper, type EnvSource } from './env';
import { ProjectError } from './errors';
import { clearProjectCache, filesOf, readJsonFile, requireProjectFile, subdirs } from './require-project';
import { loadApiContentTypes, loadComponents, loadExtensionSchemas } from './schemas';
import { descriptorFactories, installStrapiModuleShim, type StrapiFactories } from './strapi-module';

export type ModuleMap = Record<string, unknown>;

export interface ApiModules {
  routes: ModuleMap;
  controllers: ModuleMap;
  services: ModuleMap;
  policies: ModuleMap;
  middlewares: ModuleMap;
}

type Hook = (ctx: { strapi: unknown }) => unknown;

export interface Project {
  /** absolute project folder */
  dir: string;
  config: ConfigStore;
  /** content-type and component definitions ready for buildModel() */
  sources: ModelSource[];
  /** schemas of src/extensions/<plugin>/content-types/<name>/schema.json, keyed `plugin::<plugin>.<name>` */
  extensions: Record<string, RawSchema>;
  /** keyed by api folder name (`article`); inside, modules keyed `api::<api>.<file>` */
  apis: Record<string, ApiModules>;
  /** src/policies and src/middlewares, keyed `global::<file>` */
  global: { policies: ModuleMap; middlewares: ModuleMap };
  /** lifecycles.js per content-type uid if present */
  lifecycles: Record<string, unknown>;
  /** src/index.js exports (register/bootstrap/destroy), {} when absent */
  app: { register?: Hook; bootstrap?: Hook; destroy?: Hook };
  /** public dir (v4: `server.dirs.public`, default `<dir>/public`) */
  publicDir: string;
  /** v4's `env()` helper over the environment the project was loaded with (plugins' config functions get it) */
  env: EnvHelper;
}

export interface LoadProjectOptions {
  /** environment (default process.env); `<dir>/.env` is loaded into it without overwriting */
  env?: EnvSource;
  /** what `require('@strapi/strapi').factories` gives project files; default: descriptor factories */
  factories?: Partial<StrapiFactories>;
}

const API_PARTS = { routes: 'route', controllers: 'controller', services: 'service', policies: 'policy', middlewares: 'middleware' } as const;

/** Every `<dir>/*.js|json`, keyed `<prefix><basename>`. */
function loadModules(dir: string, prefix: string, what: string): ModuleMap {
  const out: ModuleMap = {};
  for (const name of filesOf(dir, ['.js', '.json'])) {
    const file = path.join(dir, name);
    out[prefix + path.basename(name, path.extname(name))] =
      path.extname(name) === '.json' ? readJsonFile(file, `${what} file`) : requireProjectFile(file, `${what} file`);
  }
  return out;
}

function loadApis(root: string): Record<string, ApiModules> {
  const apiDir = path.join(root, 'src', 'api');
  const out: Record<string, ApiModules> = {};
  for (const api of subdirs(apiDir)) {
    const modules = {} as ApiModules;
    for (const [part, what] of Object.entries(API_PARTS) as [keyof ApiModules, string][]) {
      modules[part] = loadModules(path.join(apiDir, api, part), `api::${api}.`, what);
    }
    out[api] = modules;
  }
  return out;
}

function loadApp(root: string): Project['app'] {
  const file = path.join(root, 'src', 'index.js');
  if (!fs.existsSync(file)) return {};
  const mod = requireProjectFile(file, 'application file');
  if (mod === undefined || mod === null) return {};
  if (typeof mod !== 'object') throw new ProjectError('must export an object with register/bootstrap/destroy', file);
  for (const hook of ['register', 'bootstrap', 'destroy'] as const) {
    const fn = (mod as Record<string, unknown>)[hook];
    if (fn !== undefined && typeof fn !== 'function') throw new ProjectError(`"${hook}" must be a function`, file);
  }
  return mod as Project['app'];
}

/** Load a v4 project. Throws ProjectError (naming the file) on unreadable config, JSON or JS. */
export async function loadProject(dir: string, opts: LoadProjectOptions = {}): Promise<Project> {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new ProjectError('project folder not found', root);
  const source = opts.env ?? process.env;
  loadDotenv(root, source);
  // fresh modules on every load: `develop` restarts must see edited files
  clearProjectCache(root);
  // stays installed: project code may also require these lazily, at request time
  const env = createEnv(source);
  installStrapiModuleShim({ ...descriptorFactories, ...opts.factories }, { env });

  const config = loadConfig(root, { env: source });
  const { sources: contentTypes, lifecycles } = loadApiContentTypes(root);
  const components = loadComponents(root);
  return {
    dir: root,
    config,
    sources: [...contentTypes, ...components],
    extensions: loadExtensionSchemas(root),
    apis: loadApis(root),
    global: {
      policies: loadModules(path.join(root, 'src', 'policies'), 'global::', 'policy'),
      middlewares: loadModules(path.join(root, 'src', 'middlewares'), 'global::', 'middleware'),
    },
    lifecycles,
    app: loadApp(root),
    publicDir: path.resolve(root, config.get<string>('server.dirs.public', './public')),
    env,
  };
}
