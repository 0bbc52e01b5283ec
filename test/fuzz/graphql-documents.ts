// GraphQL documents for fuzzing, built from the fixture app's schema (the SDL real Strapi serves for it,
// test/fixtures/strapi4-app/schema.graphql): a fast-check seed drives a small deterministic generator that
// walks the schema, so every document is reproducible from its case. Selections go deep and wide with aliases,
// inline fragments on unions and arguments of every input type, mostly valid and sometimes of the wrong kind.
import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema, getNamedType, GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType,
  GraphQLUnionType, isLeafType, type GraphQLField, type GraphQLInputType, type GraphQLNamedType, type GraphQLSchema,
} from 'graphql';
import { FIXTURE_APP } from '../helpers/fixture-model';

export const FIXTURE_SCHEMA: GraphQLSchema = buildSchema(fs.readFileSync(path.join(FIXTURE_APP, 'schema.graphql'), 'utf8'));

/** mulberry32: the same numbers for the same seed, everywhere */
export class Dice {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const ODD_LITERALS = ['null', '""', '"x"', '0', '-1', '1.5', '2147483648', '99999999999999999999', 'true', 'NOPE', '[]', '{}', '[null]', '{ nope: 1 }', '"\\u0000"', '$undefinedVariable'];

/** a GraphQL literal of `type`: mostly valid; with `wrong` chance, anything */
export function literal(type: GraphQLInputType, d: Dice, depth = 0, wrong = 0.05): string {
  if (d.chance(wrong)) return d.pick(ODD_LITERALS);
  if (type instanceof GraphQLNonNull) return literal(type.ofType, d, depth, wrong);
  if (!(type instanceof GraphQLNonNull) && d.chance(0.05)) return 'null';
  if (type instanceof GraphQLList) {
    // a huge list only of scalars: huge lists of objects holding huge lists would multiply into hundreds of megabytes
    const n = isLeafType(getNamedType(type.ofType)) && d.chance(0.02) ? 2_000 : d.int(4);
    return `[${Array.from({ length: n }, () => literal(type.ofType, d, depth + 1, wrong)).join(', ')}]`;
  }
  if (type instanceof GraphQLEnumType) return d.pick(type.getValues()).name;
  if (type instanceof GraphQLInputObjectType) {
    if (depth > 4) return '{}';
    const fields = Object.values(type.getFields()).filter((f) => f.type instanceof GraphQLNonNull || d.chance(3 / Math.max(3, Object.keys(type.getFields()).length)));
    return `{ ${fields.map((f) => `${f.name}: ${literal(f.type, d, depth + 1, wrong)}`).join(', ')} }`;
  }
  return JSON.stringify(scalarValue((type as GraphQLScalarType).name, d));
}

/** a variable's JSON value of `type`, as literal() but for the variables object */
export function variableValue(type: GraphQLInputType, d: Dice, depth = 0, wrong = 0.05): unknown {
  if (d.chance(wrong)) return d.pick<unknown>([null, '', 'x', 0, -1, 1.5, 2 ** 31, 1e300, true, [], {}, [null], { nope: 1 }, 'x'.repeat(depth ? 100 : 100_000)]);
  if (type instanceof GraphQLNonNull) return variableValue(type.ofType, d, depth, wrong);
  if (type instanceof GraphQLList) {
    const n = isLeafType(getNamedType(type.ofType)) && d.chance(0.02) ? 5_000 : d.int(4);
    return Array.from({ length: n }, () => variableValue(type.ofType, d, depth + 1, wrong));
  }
  if (type instanceof GraphQLEnumType) return d.pick(type.getValues()).name;
  if (type instanceof GraphQLInputObjectType) {
    if (depth > 4) return {};
    const fields = Object.values(type.getFields()).filter((f) => f.type instanceof GraphQLNonNull || d.chance(3 / Math.max(3, Object.keys(type.getFields()).length)));
    return Object.fromEntries(fields.map((f) => [f.name, variableValue(f.type, d, depth + 1, wrong)]));
  }
  return scalarValue((type as GraphQLScalarType).name, d);
}

function scalarValue(name: string, d: Dice): unknown {
  switch (name) {
    case 'Int': return d.pick([0, 1, 5, 10, 100, -1, 2 ** 31 - 1]);
    case 'Float': return d.pick([0, 1.5, -2.25, 1e10]);
    case 'Boolean': return d.chance(0.5);
    case 'ID': return String(d.pick([1, 2, 3, 5, 8, 30, 60, 0, 99999]));
    case 'Long': return d.pick(['1', '9223372036854775807', '-9223372036854775808', '9223372036854775808']);
    case 'DateTime': return d.pick(['2025-01-01T00:00:00.000Z', '2026-11-20T10:00:00Z', 'not a date']);
    case 'Date': return d.pick(['2025-01-01', '2025-02-30']);
    case 'JSON': return d.pick<unknown>([{ a: 1 }, [1, 2], 'x', null, { __proto__x: 1 }]);
    case 'I18NLocaleCode': return d.pick(['en', 'fr', 'xx']);
    case 'ArticleBlocksDynamicZoneInput': return d.pick<unknown>([{ __typename: 'ComponentBlocksText', body: 'x' }, { __typename: 'ComponentBlocksQuote', text: 'q' }, { __typename: 'Nope' }]);
    case 'Upload': return null;
    default: return d.pick(['x', 'jade', 'news', '', 'title:asc', 'views:desc', 'author.name:asc', 'nope:asc', 'a'.repeat(50)]);
  }
}

/** a selection set on `type`: up to `maxDepth` levels, `width` fields a level at most, aliases now and then */
export function selection(type: GraphQLNamedType, d: Dice, depth: number, maxDepth: number, width: number): string {
  if (type instanceof GraphQLUnionType) {
    const members = type.getTypes().filter(() => d.chance(0.6));
    return `{ __typename ${members.map((m) => `... on ${m.name} ${selection(m, d, depth + 1, maxDepth, width)}`).join(' ')} }`;
  }
  if (!(type instanceof GraphQLObjectType)) return '';
  const fields = Object.values(type.getFields()) as Array<GraphQLField<unknown, unknown>>;
  const chosen: string[] = [];
  const n = 1 + d.int(Math.min(width, fields.length));
  for (let i = 0; i < n; i++) {
    const f = d.pick(fields);
    const named = getNamedType(f.type);
    const alias = d.chance(0.15) ? `a${i}_${d.int(1000)}: ` : '';
    const args = f.args.filter(() => d.chance(0.35)).map((a) => `${a.name}: ${literal(a.type, d)}`);
    const call = `${alias}${f.name}${args.length ? `(${args.join(', ')})` : ''}`;
    if (isLeafType(named)) chosen.push(call);
    else if (depth < maxDepth) chosen.push(`${call} ${selection(named, d, depth + 1, maxDepth, width)}`);
  }
  if (!chosen.length || d.chance(0.1)) chosen.push('__typename');
  return `{ ${chosen.join(' ')} }`;
}

/** a random operation on a root field of `root` (Query or Mutation); `pick` chooses which root fields may be used */
export function operation(d: Dice, root: GraphQLObjectType, pickable: (name: string) => boolean, o: { maxDepth: number; width: number; asVariables: boolean }): { query: string; variables: Record<string, unknown> } {
  const fields = Object.values(root.getFields()).filter((f) => pickable(f.name));
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  const roots: string[] = [];
  const count = 1 + d.int(3);
  for (let i = 0; i < count; i++) {
    const f = d.pick(fields);
    const args = f.args.filter((a) => a.type instanceof GraphQLNonNull || d.chance(0.5)).map((a) => {
      if (!o.asVariables || d.chance(0.3)) return `${a.name}: ${literal(a.type, d)}`;
      const v = `v${i}_${a.name}`;
      // sometimes declared with another type than the argument's (a wrong variable type)
      declared.push(`$${v}: ${d.chance(0.08) ? d.pick(['Int', 'String!', '[ID]', 'Boolean', 'JSON', 'Nope']) : String(a.type)}`);
      if (!d.chance(0.05)) variables[v] = variableValue(a.type, d);
      return `${a.name}: $${v}`;
    });
    const named = getNamedType(f.type);
    const sel = isLeafType(named) ? '' : ` ${selection(named, d, 1, o.maxDepth, o.width)}`;
    roots.push(`r${i}: ${f.name}${args.length ? `(${args.join(', ')})` : ''}${sel}`);
  }
  const kind = root === FIXTURE_SCHEMA.getMutationType() ? 'mutation' : 'query';
  return { query: `${kind} Fuzz${declared.length ? `(${declared.join(', ')})` : ''} { ${roots.join(' ')} }`, variables };
}

/** adversarial documents by kind: each answered by a refusal in GraphQL's shape, never a 5xx or a hang */
export const HOSTILE_KINDS = ['fragment cycle', 'exploding fragments', 'many aliases', 'wide', 'deep', 'huge list', 'huge variables', 'unknown operation',
  'two operations', 'syntax', 'batch', 'not a document', 'directives', 'introspection', 'huge string'] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

/** the request body (a JSON value) of a hostile case */
export function hostile(kind: HostileKind, d: Dice): unknown {
  const n = 1 + d.int(50);
  switch (kind) {
    case 'fragment cycle':
      return { query: `query { articles { data { ...A } } } fragment A on ArticleEntity { id ...B } fragment B on ArticleEntity { ${d.chance(0.5) ? '...A' : 'attributes { title } ...B'} }` };
    case 'exploding fragments': {
      // each level spreads the next twice: 2^levels fields once expanded
      const levels = 5 + d.int(20);
      const frags = Array.from({ length: levels }, (_, i) => `fragment F${i} on ArticleEntity { id ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'attributes { title }'} }`);
      return { query: `query { articles { data { ...F0 } } } ${frags.join(' ')}` };
    }
    case 'many aliases':
      return { query: `query { ${Array.from({ length: n * 40 }, (_, i) => `a${i}: articles { data { id } }`).join(' ')} }` };
    case 'wide':
      return { query: `query { articles { data { attributes { ${Array.from({ length: n * 100 }, (_, i) => `t${i}: title`).join(' ')} } } } }` };
    case 'deep': {
      const levels = 5 + d.int(200);
      let sel = 'id';
      for (let i = 0; i < levels; i++) sel = i % 2 ? `data { id attributes { related { ${sel} } } }` : `data { id attributes { editorPick { ${sel} } } }`;
      return { query: `query { articles { ${sel} } }` };
    }
    case 'huge list':
      return { query: `query { articles(filters: { id: { in: [${Array.from({ length: n * 200 }, (_, i) => i).join(',')}] } }) { data { id } } }` };
    case 'huge variables': {
      let deep: unknown = 1;
      for (let i = 0, m = d.int(200); i < m; i++) deep = d.chance(0.5) ? [deep] : { and: deep };
      return { query: 'query Q($f: ArticleFiltersInput, $s: [String]) { articles(filters: $f, sort: $s) { data { id } } }', variables: { f: d.chance(0.5) ? deep : { id: { in: Array.from({ length: n * 400 }, (_, i) => String(i)) } }, s: Array.from({ length: n * 10 }, () => 'title:asc') } };
    }
    case 'unknown operation':
      return { query: 'query A { articles { data { id } } } query B { authors { data { id } } }', operationName: d.pick(['C', '', 'a', null, 5, '__proto__']) };
    case 'two operations':
      return { query: 'query A { articles { data { id } } } query B { authors { data { id } } }' };
    case 'syntax': {
      const tokens = ['{', '}', '(', ')', 'query', 'mutation', 'fragment', 'on', '...', '$', ':', '!', '[', ']', '"', '"""', '#', 'articles', 'data', 'id', '@skip', '=', ',', '\u0000', 'é', '1e400'];
      return { query: Array.from({ length: n }, () => d.pick(tokens)).join(d.pick([' ', ''])) };
    }
    case 'batch': {
      const one = { query: 'query { articles(pagination: { pageSize: 1 }) { data { id } } }' };
      return d.pick<unknown>([[], [one], Array.from({ length: 10 }, () => one), Array.from({ length: 11 }, () => one), [one, null], [one, 'x'], [[one]], [{ query: 5 }]]);
    }
    case 'not a document':
      return d.pick<unknown>([null, 5, 'query { articles { data { id } } }', { query: null }, { query: 5 }, { query: ['x'] }, { query: '' }, { variables: {} }, { query: '{ articles { data { id } } }', variables: 'not json' }, { query: '{ articles { data { id } } }', variables: '{"a":' }, { query: '{ __proto__ }' }]);
    case 'directives':
      return { query: `query { articles @skip(if: ${d.pick(['true', 'false', '1', '"x"'])}) { data { id @include(if: true) @include(if: false) @nope } } }` };
    case 'introspection':
      return { query: `query { __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } ${'__typename '.repeat(n)} }` };
    case 'huge string':
      return { query: `query { articles(filters: { title: { eq: ${JSON.stringify('x'.repeat(n * 1000))} } }) { data { id } } }` };
  }
}
