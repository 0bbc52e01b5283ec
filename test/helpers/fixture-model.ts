// The Model of the fixture app in ../shared/strapi4 (plus v4's internal models), built the way the app does.
import path from 'node:path';
import { buildModel } from '../../src/model/build-model';
import { internalModelSources } from '../../src/model/internal-models';
import { loadApiContentTypes, loadComponents } from '../../src/project/schemas';
import type { Model } from '../../src/model/types';

/** the shared folder beside the checkout (TESSERA_SHARED elsewhere: .ci/run sets it for a clone made away from it) */
export const SHARED = process.env.TESSERA_SHARED ?? path.resolve(__dirname, '../../../shared');
export const FIXTURE_APP = path.join(SHARED, 'strapi4');
export const FIXTURE_DB = path.join(FIXTURE_APP, 'fixture-data/data.db');

let cached: Model | undefined;
export function fixtureModel(): Model {
  if (cached) return cached;
  const root = FIXTURE_APP;
  cached = buildModel([...internalModelSources(), ...loadApiContentTypes(root).sources, ...loadComponents(root)]);
  return cached;
}
