// v4's last step (@graphql-tools/utils 8's pruneSchema, which the graphql plugin runs on the finished schema):
// from the root types, follow field types, arguments of object fields, union members and interfaces; a type
// with no fields is not followed (so it goes too). Every type not reached is removed, and with it every field,
// argument, input field and union member that referred to it, even a required one (v4: a `…Input` with every
// field switched off takes the `data` argument of its mutations with it). Repeated until nothing more goes.
// Root types are kept. Kept types keep their resolvers, type checks and order.
import {
  GraphQLDirective, GraphQLEnumType, GraphQLInputObjectType, GraphQLInterfaceType, GraphQLList, GraphQLNonNull, GraphQLObjectType,
  GraphQLScalarType, GraphQLSchema, GraphQLUnionType, getNamedType, isEnumType, isInputObjectType, isInterfaceType,
  isIntrospectionType, isListType, isNonNullType, isObjectType, isScalarType, isSpecifiedDirective, isSpecifiedScalarType, isUnionType,
  type GraphQLField, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLNamedType,
  type GraphQLType,
} from 'graphql';

export function pruneSchema(schema: GraphQLSchema): GraphQLSchema {
  let current = schema;
  for (;;) {
    const reached = reachedTypes(current);
    const roots = new Set([current.getQueryType(), current.getMutationType(), current.getSubscriptionType()].map((t) => t?.name));
    const removed = new Set(Object.values(current.getTypeMap())
      .filter((t) => !reached.has(t.name) && !roots.has(t.name) && !isIntrospectionType(t) && !isSpecifiedScalarType(t))
      .map((t) => t.name));
    if (removed.size === 0) return current;
    current = without(current, removed);
  }
}

function reachedTypes(schema: GraphQLSchema): Set<string> {
  const reached = new Set<string>();
  const queue: string[] = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((t) => (t ? [t.name] : []));
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (reached.has(name)) continue;
    const type = schema.getType(name);
    if (!type) continue;
    if (isUnionType(type)) queue.push(...type.getTypes().map((t) => t.name));
    if (isObjectType(type) || isInterfaceType(type)) queue.push(...type.getInterfaces().map((t) => t.name));
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      if (fields.length === 0) continue;
      for (const field of fields) {
        // as graphql-tools: arguments of object fields only
        if (isObjectType(type)) queue.push(...(field as GraphQLField<unknown, unknown>).args.map((a) => getNamedType(a.type).name));
        const named: GraphQLNamedType = getNamedType(field.type as GraphQLType);
        // an interface a field returns brings the types that implement it
        if (isInterfaceType(named)) queue.push(...schema.getPossibleTypes(named).map((t) => t.name));
        queue.push(named.name);
      }
    }
    reached.add(name);
  }
  return reached;
}

/** the schema rebuilt without the `removed` types and everything that refers to them */
function without(schema: GraphQLSchema, removed: ReadonlySet<string>): GraphQLSchema {
  const kept = new Map<string, GraphQLNamedType>();
  const named = (type: GraphQLNamedType): GraphQLNamedType | undefined => {
    if (removed.has(type.name)) return undefined;
    return kept.get(type.name) ?? type; // specified scalars and introspection types are shared
  };
  const rewire = (type: GraphQLType): GraphQLType | undefined => {
    if (isListType(type)) {
      const inner = rewire(type.ofType);
      return inner && new GraphQLList(inner);
    }
    if (isNonNullType(type)) {
      const inner = rewire(type.ofType);
      return inner && new GraphQLNonNull(inner as never);
    }
    return named(type);
  };
  const args = (map: GraphQLFieldConfigArgumentMap | undefined): GraphQLFieldConfigArgumentMap => {
    const out: GraphQLFieldConfigArgumentMap = {};
    for (const [name, arg] of Object.entries(map ?? {})) {
      const type = rewire(arg.type);
      if (type) out[name] = { ...arg, type: type as never };
    }
    return out;
  };
  const fields = (map: GraphQLFieldConfigMap<unknown, unknown>): GraphQLFieldConfigMap<unknown, unknown> => {
    const out: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const [name, field] of Object.entries(map)) {
      const type = rewire(field.type);
      if (type) out[name] = { ...field, type: type as never, args: args(field.args) };
    }
    return out;
  };
  const inputFields = (map: GraphQLInputFieldConfigMap): GraphQLInputFieldConfigMap => {
    const out: GraphQLInputFieldConfigMap = {};
    for (const [name, field] of Object.entries(map)) {
      const type = rewire(field.type);
      if (type) out[name] = { ...field, type: type as never };
    }
    return out;
  };
  const members = <T extends GraphQLNamedType>(list: readonly T[]): T[] => list.flatMap((t) => {
    const type = named(t);
    return type ? [type as T] : [];
  });
  const copy = (type: GraphQLNamedType): GraphQLNamedType => {
    if (isObjectType(type)) {
      const config = type.toConfig();
      return new GraphQLObjectType({ ...config, fields: () => fields(config.fields), interfaces: () => members(config.interfaces) });
    }
    if (isInterfaceType(type)) {
      const config = type.toConfig();
      return new GraphQLInterfaceType({ ...config, fields: () => fields(config.fields), interfaces: () => members(config.interfaces) });
    }
    if (isUnionType(type)) {
      const config = type.toConfig();
      return new GraphQLUnionType({ ...config, types: () => members(config.types) });
    }
    if (isInputObjectType(type)) {
      const config = type.toConfig();
      return new GraphQLInputObjectType({ ...config, fields: () => inputFields(config.fields) });
    }
    if (isEnumType(type)) return new GraphQLEnumType(type.toConfig());
    if (isScalarType(type)) return new GraphQLScalarType(type.toConfig());
    throw new Error(`unexpected GraphQL type ${String(type)}`);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (removed.has(type.name) || isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    kept.set(type.name, copy(type));
  }
  const root = (type: GraphQLObjectType | null | undefined) => (type ? (kept.get(type.name) as GraphQLObjectType) : undefined);
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    query: root(config.query),
    mutation: root(config.mutation),
    subscription: root(config.subscription),
    types: [...kept.values()],
    directives: config.directives.map((d) => (isSpecifiedDirective(d) ? d : new GraphQLDirective({ ...d.toConfig(), args: args(d.toConfig().args) }))),
  });
}
