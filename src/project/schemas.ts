// schema.json files of a v4 project -> ModelSource[] for buildModel(), plus the extension schemas
// (src/extensions/<plugin>/content-types/<name>/schema.json) and the lifecycles.js modules.
import fs from 'node:fs';
import path from 'node:path';
import type { ModelSource } from '../model/build-model';
import type { RawSchema } from '../model/types';
import { ProjectError } from './errors';
import { filesOf, readJsonFile, requireProjectFile, subdirs } from './require-project';

function readSchema(file: string): RawSchema {
  const json = readJsonFile(file, 'schema JSON');
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new ProjectError('a schema must be a JSON object', file);
  return json as RawSchema;
}

function kindOf(schema: RawSchema, file: string): 'collectionType' | 'singleType' {
  const kind = schema.kind ?? 'collectionType';
  if (kind !== 'collectionType' && kind !== 'singleType') {
    throw new ProjectError(`unknown kind "${String(kind)}" (expected "collectionType" or "singleType")`, file);
  }
  return kind;
}

export interface ContentTypeFiles {
  sources: ModelSource[];
  /** uid -> lifecycles.js exports */
  lifecycles: Record<string, unknown>;
}

/** src/api/<api>/content-types/<name>/schema.json -> `api::<api>.<name>` */
export function loadApiContentTypes(root: string): ContentTypeFiles {
  const sources: ModelSource[] = [];
  const lifecycles: Record<string, unknown> = {};
  const apiDir = path.join(root, 'src', 'api');
  for (const api of subdirs(apiDir)) {
    const typesDir = path.join(apiDir, api, 'content-types');
    for (const name of subdirs(typesDir)) {
      const file = path.join(typesDir, name, 'schema.json');
      if (!fs.existsSync(file)) continue;
      const schema = readSchema(file);
      const uid = `api::${api}.${name}`;
      sources.push({ uid, kind: kindOf(schema, file), origin: 'api', modelName: name, schema, file });
      const hooks = path.join(typesDir, name, 'lifecycles.js');
      if (fs.existsSync(hooks)) lifecycles[uid] = requireProjectFile(hooks, 'lifecycles file');
    }
  }
  return { sources, lifecycles };
}

/** src/components/<category>/<name>.json -> `<category>.<name>` */
export function loadComponents(root: string): ModelSource[] {
  const out: ModelSource[] = [];
  const dir = path.join(root, 'src', 'components');
  for (const category of subdirs(dir)) {
    for (const fileName of filesOf(path.join(dir, category), ['.json'])) {
      const file = path.join(dir, category, fileName);
      const name = path.basename(fileName, '.json');
      out.push({ uid: `${category}.${name}`, kind: 'component', origin: 'component', modelName: name, schema: readSchema(file), file });
    }
  }
  return out;
}

/** src/extensions/<plugin>/content-types/<name>/schema.json -> `plugin::<plugin>.<name>` */
export function loadExtensionSchemas(root: string): Record<string, RawSchema> {
  const out: Record<string, RawSchema> = {};
  const dir = path.join(root, 'src', 'extensions');
  for (const plugin of subdirs(dir)) {
    const typesDir = path.join(dir, plugin, 'content-types');
    for (const name of subdirs(typesDir)) {
      const file = path.join(typesDir, name, 'schema.json');
      if (fs.existsSync(file)) out[`plugin::${plugin}.${name}`] = readSchema(file);
    }
  }
  return out;
}
