import { createRequire } from 'node:module';
import { describe, it, expect } from 'vitest';
import { createEnv } from '../../../src/project/env';
import { descriptorFactories, installStrapiModuleShim } from '../../../src/project/strapi-module';

const req = createRequire(__filename);

describe('installStrapiModuleShim', () => {
  it('answers exactly @strapi/strapi and @strapi/utils, and restores', () => {
    expect(() => req('@strapi/strapi')).toThrow();
    const restore = installStrapiModuleShim(descriptorFactories, { env: createEnv({ A: '1' }), strapi: { version: 'x' } });
    try {
      const strapi = req('@strapi/strapi');
      expect(strapi.version).toBe('x');
      expect(strapi.factories.createCoreRouter('api::a.a')).toEqual({ __tessera: 'core-router', uid: 'api::a.a', options: {} });
      expect(strapi.factories.createCoreController('api::a.a', { find() {} })).toMatchObject({ __tessera: 'core-controller', uid: 'api::a.a' });
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
