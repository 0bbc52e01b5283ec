// The scalars v4's schema declares (graphql-scalars' JSON, DateTime, Date, Long; v4's Time; graphql-upload's
// Upload; i18n's I18NLocaleCode), with v4's descriptions, and the attribute type -> GraphQL scalar map.
// Values pass through unchanged here: checking and casting arguments belongs to the resolvers (the shared
// pipeline casts filter and input values as REST does).
import { GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';
import type { ScalarType } from '../../model/types';

const identity = (value: unknown): unknown => value;
const untyped = (ast: ValueNode, variables?: Record<string, unknown> | null): unknown => valueFromASTUntyped(ast, variables ?? undefined);

function scalar(name: string, description?: string): GraphQLScalarType {
  return new GraphQLScalarType({ name, description, serialize: identity, parseValue: identity, parseLiteral: untyped });
}

/** a fresh set per schema: graphql-js types belong to one schema */
export function createScalars(): Record<string, GraphQLScalarType> {
  return {
    JSON: scalar('JSON', 'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).'),
    DateTime: scalar('DateTime', 'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.'),
    Time: scalar('Time', 'A time string with format HH:mm:ss.SSS'),
    Date: scalar('Date', 'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.'),
    Long: scalar('Long', 'The `BigInt` scalar type represents non-fractional signed whole numeric values.'),
    Upload: scalar('Upload', 'The `Upload` scalar type represents a file upload.'),
  };
}

export function createLocaleScalar(): GraphQLScalarType {
  return new GraphQLScalarType({
    name: 'I18NLocaleCode',
    description: 'A string used to identify an i18n locale',
    serialize: identity,
    parseValue: identity,
    parseLiteral: (ast) => (ast.kind === Kind.STRING ? ast.value : undefined),
  });
}

/** v4's SCALARS_ASSOCIATIONS */
export const SCALAR_OF: Record<ScalarType, string> = {
  uid: 'String', email: 'String', password: 'String', text: 'String', string: 'String', enumeration: 'String',
  richtext: 'String', boolean: 'Boolean', integer: 'Int', blocks: 'JSON', biginteger: 'Long', float: 'Float',
  decimal: 'Float', json: 'JSON', date: 'Date', time: 'Time', datetime: 'DateTime', timestamp: 'DateTime',
};

/** the scalars that get a `…FilterInput`, in v4's order */
export const FILTERABLE_SCALARS = ['ID', 'Boolean', 'String', 'Int', 'Long', 'Float', 'Date', 'Time', 'DateTime', 'JSON'];
