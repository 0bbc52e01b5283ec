import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { createEnv } from '../../../src/project/env';
import { errors as tesseraErrors } from '../../../src/project/strapi-errors';
import { toErrorBody } from '../../../src/errors';
import { descriptorFactories, installStrapiModuleShim } from '../../../src/project/strapi-module';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';

const req = createRequire(__filename);

describe('installStrapiModuleShim', () => {
  it('answers exactly @strapi/strapi and @strapi/utils, and restores', () => {
    expect(() => req('@strapi/strapi')).toThrow();
    const restore = installStrapiModuleShim(descriptorFactories, { env: createEnv({ A: '1' }), strapi: { version: 'x' } });
    try {
      const strapi = req('@strapi/strapi');
      expect(strapi.version).toBe('x');
      expect(strapi.factories.createCoreRouter('api::a.a')).toEqual({ __tessera: 'core-router', uid: 'api::a.a', options: {} });
      // a descriptor that is also v4's callable factory
      expect({ ...strapi.factories.createCoreController('api::a.a', { find() {} }) }).toMatchObject({ __tessera: 'core-controller', uid: 'api::a.a' });
      expect(req.resolve('@strapi/strapi')).toBe('@strapi/strapi');
      const utils = req('@strapi/utils');
      expect(utils.env.int('A')).toBe(1);
      const err = new utils.errors.ValidationError('bad', { errors: [] });
      expect(err).toBeInstanceOf(utils.errors.ApplicationError);
      expect(err).toMatchObject({ name: 'ValidationError', message: 'bad', details: { errors: [] } });
      // other packages are untouched
      expect(req('lodash').get({ a: 1 }, 'a')).toBe(1);
      expect(() => req('@strapi/database')).toThrow();
    } finally {
      restore();
    }
    expect(() => req('@strapi/strapi')).toThrow();
  });

  it("gives an installed package the real @strapi/utils it resolves, with Tessera's errors and env", () => {
    // a file of an installed v4 plugin (test/plugin-projects/node_modules): slugify requires @strapi/utils' sanitize
    const pluginFile = path.join(PLUGIN_PROJECTS_DIR, 'node_modules/strapi-plugin-slugify/server/utils/sanitizeOutput.js');
    const fromPlugin = createRequire(pluginFile);
    const restore = installStrapiModuleShim(descriptorFactories, { env: createEnv({ A: '2' }) });
    try {
      const utils = fromPlugin('@strapi/utils');
      expect(typeof utils.sanitize.contentAPI.output).toBe('function');
      expect(typeof utils.getAbsoluteServerUrl).toBe('function');
      expect(utils.errors).toBe(tesseraErrors);
      expect(utils.env.int('A')).toBe(2);
      expect(fromPlugin('@strapi/utils')).toBe(utils);
      expect(fromPlugin.resolve('@strapi/utils')).toMatch(/node_modules\/@strapi\/utils\//);
      // what the real module's own functions throw is answered as v4 answers it
      const real = fromPlugin(fromPlugin.resolve('@strapi/utils')).errors;
      expect(toErrorBody(new real.ForbiddenError()).body.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Forbidden access', details: {} });
      expect(toErrorBody(new real.ValidationError('Invalid parameter x')).status).toBe(400);
      expect(new real.NotFoundError()).toBeInstanceOf(tesseraErrors.NotFoundError);
      // the project's own code keeps the shim
      expect(Object.keys(req('@strapi/utils')).sort()).toEqual(['env', 'errors']);
    } finally {
      restore();
    }
  });

  it('a second install wins; restoring returns to the first', () => {
    const first = installStrapiModuleShim({ n: 1 });
    const second = installStrapiModuleShim({ n: 2 });
    expect(req('@strapi/strapi').factories.n).toBe(2);
    second();
    expect(req('@strapi/strapi').factories.n).toBe(1);
    first();
    expect(() => req('@strapi/strapi')).toThrow();
  });
});
