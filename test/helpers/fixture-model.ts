// The fixture app (test/fixtures/strapi4-app: a real Strapi 4.26.2 project and the database Strapi wrote for it)
// and its Model (plus v4's internal models), built the way the app does.
import path from 'node:path';
import { buildModel } from '../../src/model/build-model';
import { internalModelSources } from '../../src/model/internal-models';
import { loadApiContentTypes, loadComponents } from '../../src/project/schemas';
import type { Model } from '../../src/model/types';

/** in the repository, so a clone tests itself with nothing beside it */
export const FIXTURE_APP = path.resolve(__dirname, '../fixtures/strapi4-app');
export const FIXTURE_DATA = path.join(FIXTURE_APP, 'fixture-data');
export const FIXTURE_DB = path.join(FIXTURE_DATA, 'data.db');

let cached: Model | undefined;
export function fixtureModel(): Model {
  if (cached) return cached;
  const root = FIXTURE_APP;
  cached = buildModel([...internalModelSources(), ...loadApiContentTypes(root).sources, ...loadComponents(root)]);
  return cached;
}
