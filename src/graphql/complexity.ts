// How many entries one operation may answer (config/plugins.js graphql.config.complexityLimit, Tessera only): each
// list and the number of fields are bounded on their own (limits.ts, config.ts), but nested lists multiply (100
// articles × 100 categories × 100 articles is a million entries from a small document). The count is the product
// of the page sizes along each path of lists, summed over the paths; a list's page size is what its `pagination`
// argument asks (its variables read), else `defaultLimit`, capped by `maxLimit`/`amountLimit` (`limit: -1` without
// a cap is unbounded). It needs the variables, so it is checked per request, before execution, and only when
// configured (a document's parse is kept).
import {
  GraphQLError, Kind, getNamedType, isObjectType, parse,
  type DocumentNode, type FragmentDefinitionNode, type GraphQLNamedType, type GraphQLSchema, type OperationDefinitionNode,
  type SelectionSetNode, type ValueNode,
} from 'graphql';
import { listLimit, type GraphqlConfig } from './config';

/** parsed documents kept for the check (mercurius keeps its own for execution) */
const KEPT_DOCUMENTS = 64;

/** a `pagination` argument's value, its variables read */
function valueOf(node: ValueNode | undefined, variables: Record<string, unknown>): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case Kind.VARIABLE: return variables[node.name.value];
    case Kind.INT: return Number(node.value);
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, variables)]));
    default: return undefined;
  }
}

/** what one count reads: lists are the fields that take a `pagination` argument (collections and relations) */
interface Counting {
  schema: GraphQLSchema;
  config: GraphqlConfig;
  variables: Record<string, unknown>;
  fragments: Map<string, FragmentDefinitionNode>;
  visiting: Set<string>;
}

/** the page size a paginated field answers at most */
function pageSize(c: Counting, pagination: unknown): number {
  const cap = listLimit(c.config);
  const p = (pagination && typeof pagination === 'object' ? pagination : {}) as { limit?: unknown; pageSize?: unknown };
  const asked = typeof p.limit === 'number' ? p.limit : typeof p.pageSize === 'number' ? p.pageSize : c.config.defaultLimit;
  if (asked < 0) return cap ?? Infinity;
  return cap === undefined ? asked : Math.min(asked, cap);
}

/** entries under one instance of `type` for `set`: Σ over fields of (page size × the entries below, at least 1) */
function entries(c: Counting, set: SelectionSetNode, type: GraphQLNamedType | undefined): number {
  let n = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const def = type && isObjectType(type) ? type.getFields()[sel.name.value] : undefined;
      const child = def ? getNamedType(def.type) : undefined;
      const below = sel.selectionSet ? entries(c, sel.selectionSet, child) : 0;
      const paginated = def?.args.some((a) => a.name === 'pagination');
      if (paginated) {
        const arg = sel.arguments?.find((a) => a.name.value === 'pagination');
        n += pageSize(c, valueOf(arg?.value, c.variables)) * Math.max(1, below);
      } else n += below;
      continue;
    }
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition ? c.schema.getType(sel.typeCondition.name.value) ?? type : type;
      n += entries(c, sel.selectionSet, on);
      continue;
    }
    const fragment = c.fragments.get(sel.name.value);
    if (!fragment || c.visiting.has(fragment.name.value)) continue;
    c.visiting.add(fragment.name.value);
    n += entries(c, fragment.selectionSet, c.schema.getType(fragment.typeCondition.name.value) ?? type);
    c.visiting.delete(fragment.name.value);
  }
  return n;
}

function rootType(schema: GraphQLSchema, op: OperationDefinitionNode): GraphQLNamedType | undefined {
  const t = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  return t ?? undefined;
}

export interface ComplexityCheck {
  /** the refusal of an operation that may answer more entries than the limit, else undefined */
  refusal(source: string, variables: Record<string, unknown> | undefined, operationName: string | undefined): GraphQLError | undefined;
}

export function complexityCheck(schema: GraphQLSchema, config: GraphqlConfig, limit: number, maxTokens: number): ComplexityCheck {
  const documents = new Map<string, DocumentNode | null>();
  const documentOf = (source: string): DocumentNode | null => {
    let doc = documents.get(source);
    if (doc === undefined) {
      try {
        doc = parse(source, { maxTokens });
      } catch {
        doc = null; // execution reports it
      }
      if (documents.size >= KEPT_DOCUMENTS) documents.delete(documents.keys().next().value!);
      documents.set(source, doc);
    }
    return doc;
  };
  return {
    refusal(source, variables, operationName) {
      const doc = documentOf(source);
      if (!doc) return undefined;
      const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
      if (!op) return undefined;
      const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
      const n = entries({ schema, config, variables: variables ?? {}, fragments, visiting: new Set() }, op.selectionSet, rootType(schema, op));
      return n > limit ? new GraphQLError(`'${op.name?.value ?? ''}' may answer more than ${limit} entries`, { nodes: [op] }) : undefined;
    },
  };
}
