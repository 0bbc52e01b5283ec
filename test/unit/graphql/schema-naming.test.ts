// v4's GraphQL naming and attribute rules on projects other than the fixture app: every scalar type, an
// enumeration, password and private attributes (all-types), irregular plurals, nested components, a dynamic
// zone and relations to a plugin type (relations-app).
import path from 'node:path';
import { printType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/model/build-model';
import { internalModelSources } from '../../../src/model/internal-models';
import { loadApiContentTypes, loadComponents } from '../../../src/project/schemas';
import { buildGraphqlSchema } from '../../../src/graphql/schema/build-schema';
import { componentName, enumName, findQueryName, typeName } from '../../../src/graphql/schema/naming';
import type { Model } from '../../../src/model/types';

function projectModel(name: string): Model {
  const root = path.resolve(__dirname, '../../fixtures', name);
  return buildModel([...internalModelSources(), ...loadApiContentTypes(root).sources, ...loadComponents(root)]);
}

const print = (schema: GraphQLSchema, name: string): string => {
  const type = schema.getType(name);
  if (!type) throw new Error(`no type ${name}`);
  return printType(type);
};

describe('names', () => {
  const model = projectModel('relations-app');

  it('derives type, query, component and plugin type names as v4 does', () => {
    expect(typeName(model.require('api::person.person'))).toBe('Person');
    expect(findQueryName(model.require('api::person.person'))).toBe('people');
    expect(typeName(model.require('plugin::users-permissions.user'))).toBe('UsersPermissionsUser');
    expect(typeName(model.require('plugin::i18n.locale'))).toBe('I18NLocale');
    expect(findQueryName(model.require('plugin::i18n.locale'))).toBe('i18NLocales');
    expect(componentName(model.require('thing.box'))).toBe('ComponentThingBox');
    expect(enumName(projectModel('all-types').require('api::thing.thing'), 'status')).toBe('ENUM_THING_STATUS');
  });

  it('builds irregular plurals, nested components, dynamic zones and plugin relations', () => {
    const schema = buildGraphqlSchema(model);
    const query = schema.getQueryType()!.getFields();
    expect(Object.keys(query)).toEqual(expect.arrayContaining(['person', 'people', 'profile', 'profiles', 'tag', 'tags']));
    expect(print(schema, 'PersonPartsDynamicZone')).toBe('union PersonPartsDynamicZone = ComponentThingBox | ComponentThingInner | Error');
    expect(print(schema, 'Person')).toContain('\n  account: UsersPermissionsUserEntityResponse\n');
    expect(print(schema, 'Person')).toContain('\n  boxes(filters: ComponentThingBoxFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): [ComponentThingBox]\n');
    expect(print(schema, 'Person')).toContain('\n  friends(filters: PersonFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): PersonRelationResponseCollection\n');
    expect(print(schema, 'PersonInput')).toContain('\n  parts: [PersonPartsDynamicZoneInput!]\n');
    expect(print(schema, 'ComponentThingInner')).toBe(
      'type ComponentThingInner {\n  id: ID!\n  note: String\n  tag: TagEntityResponse\n  pic: UploadFileEntityResponse\n}',
    );
    expect(print(schema, 'ComponentThingInnerInput')).toBe('input ComponentThingInnerInput {\n  id: ID\n  note: String\n  tag: ID\n  pic: ID\n}');
  });
});

describe('attribute types', () => {
  const schema = buildGraphqlSchema(projectModel('all-types'));

  it('maps every scalar type as v4 does; enumerations are enums in types and inputs, strings in filters', () => {
    const thing = print(schema, 'Thing');
    for (const line of ['name: String!', 'summary: String', 'body: String', 'status: ENUM_THING_STATUS', 'contact: String',
      'handle: String', 'day: Date', 'at: Time', 'when: DateTime', 'stamp: DateTime', 'count: Int', 'huge: Long',
      'ratio: Float', 'amount: Float', 'active: Boolean', 'data: JSON']) {
      expect(thing).toContain(`\n  ${line}\n`);
    }
    expect(print(schema, 'ENUM_THING_STATUS')).toBe('enum ENUM_THING_STATUS {\n  draft\n  live\n  gone\n}');
    expect(print(schema, 'ThingFiltersInput')).toContain('\n  status: StringFilterInput\n  contact: StringFilterInput\n');
    expect(print(schema, 'ThingFiltersInput')).toContain('\n  at: TimeFilterInput\n');
    expect(print(schema, 'ThingInput')).toContain('\n  status: ENUM_THING_STATUS\n');
  });

  it('keeps password and private attributes out of the type and the filters, writable in the input', () => {
    for (const name of ['Thing', 'ThingFiltersInput']) {
      expect(print(schema, name)).not.toMatch(/\n {2}(pin|hidden):/);
    }
    expect(print(schema, 'ThingInput')).toContain('\n  pin: String\n');
    expect(print(schema, 'ThingInput')).toContain('\n  hidden: String\n');
  });
});
