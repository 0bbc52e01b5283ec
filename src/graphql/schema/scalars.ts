// The scalars v4's schema declares (graphql-scalars' JSON, DateTime, Date, Long; v4's Time; graphql-upload's
// Upload; i18n's I18NLocaleCode), with v4's descriptions, and the attribute type -> GraphQL scalar map. Inputs
// are checked as those scalars check them (a bad date is a document error, HTTP 400, before anything runs) and
// kept as the strings the shared pipeline casts; outputs pass through (the reader already wrote v4's values).
import { GraphQLError, GraphQLScalarType, Kind, print, valueFromASTUntyped, type ValueNode } from 'graphql';
import type { ScalarType } from '../../model/types';
import ISO_LOCALE_CODES from '../../plugins/i18n/iso-locale-codes.json';

const identity = (value: unknown): unknown => value;
const untyped = (ast: ValueNode, variables?: Record<string, unknown> | null): unknown => valueFromASTUntyped(ast, variables ?? undefined);

function scalar(name: string, description?: string): GraphQLScalarType {
  return new GraphQLScalarType({ name, description, serialize: identity, parseValue: identity, parseLiteral: untyped });
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[m - 1];
}

/** graphql-scalars' full-date (RFC 3339) */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** graphql-scalars' date-time (RFC 3339, a zone required; leap second 60 allowed) */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || !validDay(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) <= 60;
}

/** a string scalar checked by `valid`, with graphql-scalars' messages */
function checkedString(name: string, description: string, kindName: string, valid: (s: string) => boolean): GraphQLScalarType {
  const check = (value: unknown): string => {
    if (typeof value !== 'string') throw new TypeError(`${name} cannot represent non string type ${JSON.stringify(value)}`);
    if (!valid(value)) throw new TypeError(`${name} cannot represent an invalid ${kindName}-string ${value}.`);
    return value;
  };
  return new GraphQLScalarType({
    name, description, serialize: identity, parseValue: check,
    // graphql-scalars' errors name the literal's place but carry no "Expected value of type" prefix
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} cannot represent non string type ${print(ast)}`, { nodes: ast });
      try {
        return check(ast.value);
      } catch (err) {
        throw new GraphQLError((err as Error).message, { nodes: ast });
      }
    },
  });
}

/** a fresh set per schema: graphql-js types belong to one schema */
export function createScalars(): Record<string, GraphQLScalarType> {
  return {
    JSON: scalar('JSON', 'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).'),
    DateTime: checkedString('DateTime', 'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.', 'date-time', isDateTime),
    Time: scalar('Time', 'A time string with format HH:mm:ss.SSS'),
    Date: checkedString('Date', 'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.', 'date', isDate),
    Long: new GraphQLScalarType({
      name: 'Long',
      description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
      // graphql-scalars answers a number; one beyond 2^53 stays an exact string here (v4 rounds it)
      serialize: (value) => {
        const n = typeof value === 'string' || typeof value === 'bigint' ? Number(value) : value;
        return typeof n === 'number' && Number.isSafeInteger(n) ? n : value;
      },
      parseValue: identity,
      parseLiteral: untyped,
    }),
    Upload: scalar('Upload', 'The `Upload` scalar type represents a file upload.'),
  };
}

const LOCALE_CODES: ReadonlySet<string> = new Set(ISO_LOCALE_CODES as string[]);

/** i18n's scalar: a literal must be one of v4's ISO locale codes, or `all` (a variable is taken as given, as v4) */
export function createLocaleScalar(): GraphQLScalarType {
  return new GraphQLScalarType({
    name: 'I18NLocaleCode',
    description: 'A string used to identify an i18n locale',
    serialize: identity,
    parseValue: identity,
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING) throw new TypeError('Locale cannot represent non string type');
      if (ast.value !== 'all' && !LOCALE_CODES.has(ast.value)) throw new TypeError('Unknown locale supplied');
      return ast.value;
    },
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
