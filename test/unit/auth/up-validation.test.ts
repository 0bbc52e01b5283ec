// The users-permissions body checks: yup 0.32's messages and error order as v4 shows them (checked
// against Strapi 4.26.2: test/golden/auth-local.*), and v4 query params for strapi.entityService.
import { describe, expect, it } from 'vitest';
import { schemas, validateBody } from '../../../src/plugins/users-permissions/validation';
import { toFindParams, toOrderBy, toPopulate } from '../../../src/core/entity-service';
import { fixtureModel } from '../../helpers/fixture-model';

function errorsOf(schema: Parameters<typeof validateBody>[0], body: unknown) {
  try {
    validateBody(schema, body);
    return null;
  } catch (err) {
    const e = err as { message: string; details: { errors: Array<{ path: string[]; message: string }> } };
    return { message: e.message, errors: e.details.errors.map((x) => `${x.path.join('.')}: ${x.message}`) };
  }
}

describe('validateBody', () => {
  it('collects every error in yup order (reverse walk, then by declared key contained in the path)', () => {
    expect(errorsOf(schemas.callback, {})).toEqual({ message: '2 errors occurred', errors: ['identifier: identifier is a required field', 'password: password is a required field'] });
    expect(errorsOf(schemas.changePassword, {})?.errors).toEqual([
      'passwordConfirmation: passwordConfirmation is a required field', 'password: password is a required field', 'currentPassword: currentPassword is a required field',
    ]);
    expect(errorsOf(schemas.createUser, { username: 'x' })?.errors).toEqual(['email: email is a required field', 'password: password is a required field', 'role: role is a required field']);
  });

  it('strict types, emails, unknown keys, password confirmation', () => {
    expect(errorsOf(schemas.callback, { identifier: 5, password: 'x' })).toEqual({ message: 'identifier must be a `string` type, but the final value was: `5`.', errors: ['identifier: identifier must be a `string` type, but the final value was: `5`.'] });
    expect(errorsOf(schemas.register, { username: 'a', email: 'bad', password: 'x' })?.message).toBe('email must be a valid email');
    expect(errorsOf(schemas.resetPassword, { code: 'x', password: 'a', passwordConfirmation: 'a', extra: 1 })?.errors).toEqual([': this field has unspecified keys: extra']);
    expect(errorsOf(schemas.changePassword, { currentPassword: 'a', password: 'b', passwordConfirmation: 'c' })?.message).toBe('Passwords do not match');
    expect(errorsOf(schemas.updateUser, { password: '' })?.message).toBe('password must be at least 1 characters');
    expect(errorsOf(schemas.updateUser, { role: { connect: [], disconnect: [{ id: 1 }] } })?.message).toBe('Cannot remove role');
    expect(errorsOf(schemas.callback, { identifier: 'reader', password: 'x' })).toBeNull();
  });
});

describe('strapi.entityService params (v4 transformParamsToQuery)', () => {
  const article = fixtureModel().require('api::article.article');
  it('sort, fields, populate, pagination', () => {
    expect(toOrderBy('title:desc,id')).toEqual([{ title: 'desc' }, { id: 'asc' }]);
    expect(toOrderBy(['a:asc', { b: 'desc' }])).toEqual([{ a: 'asc' }, { b: 'desc' }]);
    expect(() => toOrderBy('a:up')).toThrow(/asc\|desc/);
    expect(toPopulate('*')).toBe(true);
    expect(toPopulate('author,categories.articles')).toEqual(['author', 'categories.articles']);
    expect(toPopulate({ author: { fields: ['name'], populate: { avatar: true } }, cover: false })).toEqual({ author: { select: ['id', 'name'], populate: { avatar: true } } });
    expect(toFindParams(article, { fields: 'title', pagination: { page: 3, pageSize: 5 }, filters: { title: { $contains: 'a' } } }))
      .toEqual({ select: ['id', 'title'], limit: 5, offset: 10, where: { title: { $contains: 'a' } } });
    expect(toFindParams(article, { start: 4, limit: -1 })).toEqual({ offset: 4 });
    expect(toFindParams(article, { publicationState: 'live' }).where).toEqual({ $and: [{}, { publishedAt: { $notNull: true } }] });
    expect(() => toFindParams(article, { limit: 'many' })).toThrow(/limit/);
  });
});

describe('email templates', () => {
  it('interpolate the given keys only and never evaluate code', async () => {
    const { renderTemplate } = await import('../../../src/plugins/email');
    expect(renderTemplate('<p><%= URL %>?code=<%= TOKEN %></p> <%= USER.email %> <%= OTHER %>', { URL: 'https://x', TOKEN: 't0k', USER: { email: 'a@b.c' } }))
      .toBe('<p>https://x?code=t0k</p> a@b.c <%= OTHER %>');
    expect(renderTemplate('<%= URL %>', { URL: null })).toBe('');
    expect(() => renderTemplate('<% process.exit(1) %>', {})).toThrow('Invalid email template');
    expect(() => renderTemplate('${process.env.JWT_SECRET}', {})).toThrow('Invalid email template');
  });
});
