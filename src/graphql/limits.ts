// Validation rules that bound what one document may ask for: v4's depth limit (graphql-depth-limit, with its
// message), and Tessera's caps on root fields and on all fields selected (fragments expanded), so a document of
// thousands of aliases is refused before anything runs.
import {
  GraphQLError, Kind,
  type ASTVisitor, type DefinitionNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext,
} from 'graphql';

export interface DocumentLimits {
  depth: number;
  /** root fields of one operation (each is one read) */
  rootFields: number;
  /** fields of one operation, fragments expanded */
  fields: number;
}

export const DEFAULT_DOCUMENT_LIMITS = { rootFields: 50, fields: 5000 };

function fragmentsOf(definitions: readonly DefinitionNode[]): Map<string, FragmentDefinitionNode> {
  const out = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out.set(d.name.value, d);
  return out;
}

/**
 * graphql-depth-limit's count: a field at nesting `depth` (root fields at 0) deeper than the limit is an error
 * naming the operation (`''` when anonymous); introspection fields (`__schema` ...) do not count; fragments
 * count where they are spread. Also counts fields, stopping as soon as a limit is passed.
 */
class Walk {
  fields = 0;
  error?: GraphQLError;
  constructor(private readonly limits: DocumentLimits, private readonly fragments: Map<string, FragmentDefinitionNode>, private readonly name: string) {}

  selectionSet(set: SelectionSetNode, depth: number, seen: Set<string>): void {
    for (const sel of set.selections) {
      if (this.error) return;
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        if (++this.fields > this.limits.fields) {
          this.error = new GraphQLError(`'${this.name}' selects more than ${this.limits.fields} fields`, { nodes: [sel] });
          return;
        }
        if (depth > this.limits.depth) {
          this.error = new GraphQLError(`'${this.name}' exceeds maximum operation depth of ${this.limits.depth}`, { nodes: [sel] });
          return;
        }
        if (sel.selectionSet) this.selectionSet(sel.selectionSet, depth + 1, seen);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        this.selectionSet(sel.selectionSet, depth, seen);
      } else {
        const fragment = this.fragments.get(sel.name.value);
        // a cycle is the NoFragmentCycles rule's error; here it only must not loop
        if (!fragment || seen.has(fragment.name.value)) continue;
        seen.add(fragment.name.value);
        this.selectionSet(fragment.selectionSet, depth, seen);
        seen.delete(fragment.name.value);
      }
    }
  }
}

export function documentLimitsRule(limits: DocumentLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const definitions = context.getDocument().definitions;
    const fragments = fragmentsOf(definitions);
    return {
      OperationDefinition(op: OperationDefinitionNode) {
        const name = op.name?.value ?? '';
        const roots = op.selectionSet.selections.length;
        if (roots > limits.rootFields) {
          context.reportError(new GraphQLError(`'${name}' has more than ${limits.rootFields} root fields`, { nodes: [op] }));
          return;
        }
        const walk = new Walk(limits, fragments, name);
        walk.selectionSet(op.selectionSet, 0, new Set());
        if (walk.error) context.reportError(walk.error);
      },
    };
  };
}
