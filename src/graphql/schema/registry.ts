// The types of one schema by name, in registration order (v4's type registry), and the root fields the
// builders add. Builders refer to other types by name inside field thunks, so registration order is free.
import {
  GraphQLNonNull, GraphQLList, isInputType, isOutputType, specifiedScalarTypes,
  type GraphQLFieldConfig, type GraphQLInputType, type GraphQLNamedType, type GraphQLOutputType,
} from 'graphql';
import type { ContentType } from '../../model/types';

export type RootField = GraphQLFieldConfig<unknown, unknown>;

const BUILT_IN = new Map<string, GraphQLNamedType>(specifiedScalarTypes.map((t) => [t.name, t]));

export class TypeRegistry {
  private readonly types = new Map<string, GraphQLNamedType>();
  /** the content type each registered type stands for (v4's registry config: the i18n locale argument uses it) */
  private readonly owners = new Map<string, ContentType>();
  readonly query = new Map<string, RootField>();
  readonly mutation = new Map<string, RootField>();

  register<T extends GraphQLNamedType>(type: T, owner?: ContentType): T {
    if (this.types.has(type.name)) throw new Error(`GraphQL type "${type.name}" has already been registered`);
    this.types.set(type.name, type);
    if (owner) this.owners.set(type.name, owner);
    return type;
  }

  has(name: string): boolean {
    return this.types.has(name);
  }

  ownerOf(name: string): ContentType | undefined {
    return this.owners.get(name);
  }

  get(name: string): GraphQLNamedType {
    const type = this.types.get(name) ?? BUILT_IN.get(name);
    if (!type) throw new Error(`GraphQL type "${name}" is not registered`);
    return type;
  }

  output(name: string): GraphQLOutputType {
    const type = this.get(name);
    if (!isOutputType(type)) throw new Error(`GraphQL type "${name}" is not an output type`);
    return type;
  }

  input(name: string): GraphQLInputType {
    const type = this.get(name);
    if (!isInputType(type)) throw new Error(`GraphQL type "${name}" is not an input type`);
    return type;
  }

  all(): GraphQLNamedType[] {
    return [...this.types.values()];
  }

  addQuery(name: string, field: RootField): void {
    this.query.set(name, field);
  }

  addMutation(name: string, field: RootField): void {
    this.mutation.set(name, field);
  }
}

export const nonNull = <T extends GraphQLOutputType | GraphQLInputType>(type: T): GraphQLNonNull<T> => new GraphQLNonNull(type);
export const list = <T extends GraphQLOutputType | GraphQLInputType>(type: T): GraphQLList<T> => new GraphQLList(type);
