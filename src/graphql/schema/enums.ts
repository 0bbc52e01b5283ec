// `ENUM_<TYPE>_<ATTRIBUTE>` for each enumeration attribute (or the attribute's own `enumName`), as v4.
import { GraphQLEnumType, type GraphQLEnumValueConfigMap } from 'graphql';
import type { ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { enumName } from './naming';

/** v4's toRegressedEnumValue (slugify with `_`, case kept): the value as a GraphQL name */
export function enumValueName(value: string): string {
  return value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').trim().replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
}

export function registerEnums(ctx: SchemaContext, ct: ContentType): void {
  for (const attr of Object.values(ct.attributes)) {
    if (attr.kind !== 'scalar' || attr.type !== 'enumeration') continue;
    const values: GraphQLEnumValueConfigMap = {};
    for (const value of attr.enum ?? []) values[enumValueName(value)] = { value };
    ctx.types.register(new GraphQLEnumType({ name: enumName(ct, attr.name), values }), ct);
  }
}
