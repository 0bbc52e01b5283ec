// Test helper: the model of the fixture Strapi 4.26.2 app, read straight from its schema files.
import fs from 'node:fs';
import path from 'node:path';
import { buildModel, type ModelSource } from '../../../src/model/build-model';
import { internalModelSources } from '../../../src/model/internal-models';
import type { Model, RawSchema } from '../../../src/model/types';

import { FIXTURE_APP } from '../../helpers/fixture-model';

export { FIXTURE_APP, FIXTURE_DB } from '../../helpers/fixture-model';

const readJson = (file: string): RawSchema => JSON.parse(fs.readFileSync(file, 'utf8')) as RawSchema;
const dirs = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort() : [];

export function projectSources(root = FIXTURE_APP): ModelSource[] {
  const out: ModelSource[] = [];
  const api = path.join(root, 'src/api');
  for (const apiName of dirs(api)) {
    const ctDir = path.join(api, apiName, 'content-types');
    for (const name of dirs(ctDir)) {
      const file = path.join(ctDir, name, 'schema.json');
      if (!fs.existsSync(file)) continue;
      const schema = readJson(file);
      out.push({ uid: `api::${apiName}.${name}`, kind: schema.kind as ModelSource['kind'], origin: 'api', modelName: name, schema, file });
    }
  }
  const comps = path.join(root, 'src/components');
  for (const category of dirs(comps)) {
    for (const f of fs.readdirSync(path.join(comps, category)).filter((n) => n.endsWith('.json')).sort()) {
      const name = f.replace(/\.json$/, '');
      const file = path.join(comps, category, f);
      out.push({ uid: `${category}.${name}`, kind: 'component', origin: 'component', modelName: name, schema: readJson(file), file });
    }
  }
  return out;
}

/**
 * Built-ins + project, optionally with the components in a given table order (v4's component order
 * comes from a glob, not from sorting: the fixture has shared.* before blocks.*).
 */
export function fixtureModel(componentTableOrder?: string[], extra: ModelSource[] = []): Model {
  const sources = [...internalModelSources(), ...projectSources(), ...extra];
  if (componentTableOrder) {
    const rank = (s: ModelSource) => componentTableOrder.indexOf(String(s.schema.collectionName));
    const cts = sources.filter((s) => s.kind !== 'component');
    const comps = sources.filter((s) => s.kind === 'component').sort((a, b) => rank(a) - rank(b));
    return buildModel([...cts, ...comps]);
  }
  return buildModel(sources);
}
