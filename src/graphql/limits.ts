// Validation rules that bound what one document may ask for: v4's depth limit (graphql-depth-limit, with its
// message), and Tessera's caps on root fields and on all fields selected (fragments expanded), so a document of
// thousands of aliases is refused before anything runs. Each fragment and selection set is measured once
// (memoized): a document whose fragments spread each other twice per level costs its size, not 2^levels.
import {
  GraphQLError, Kind,
  type ASTVisitor, type DefinitionNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext,
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

/** what a selection set holds, fragments expanded: its fields, and how deep its fields nest below it */
interface Size {
  fields: number;
  /** depth of its deepest non-introspection field relative to the set (0: fields at this level; -1: none) */
  depth: number;
}

const NONE: Size = { fields: 0, depth: -1 };

/**
 * graphql-depth-limit's count: a field at nesting `depth` (root fields at 0) deeper than the limit is an error
 * naming the operation (`''` when anonymous); introspection fields (`__schema` ...) do not count for depth;
 * fragments count where they are spread. A fragment cycle is the NoFragmentCycles rule's error; here it only
 * must not loop (a spread inside its own cycle counts as nothing).
 */
class DocumentSizes {
  private readonly sets = new WeakMap<SelectionSetNode, Size>();
  private readonly visiting = new Set<string>();

  constructor(private readonly fragments: Map<string, FragmentDefinitionNode>) {}

  size(set: SelectionSetNode): Size {
    const known = this.sets.get(set);
    if (known) return known;
    let fields = 0;
    let depth = -1;
    for (const sel of set.selections) {
      let inner: Size;
      if (sel.kind === Kind.FIELD) {
        fields++;
        if (sel.name.value.startsWith('__')) continue;
        const below = sel.selectionSet ? this.size(sel.selectionSet) : NONE;
        fields += below.fields;
        depth = Math.max(depth, below.depth + 1);
        continue;
      }
      if (sel.kind === Kind.INLINE_FRAGMENT) inner = this.size(sel.selectionSet);
      else {
        const fragment = this.fragments.get(sel.name.value);
        if (!fragment || this.visiting.has(fragment.name.value)) continue;
        this.visiting.add(fragment.name.value);
        inner = this.size(fragment.selectionSet);
        this.visiting.delete(fragment.name.value);
      }
      fields += inner.fields;
      depth = Math.max(depth, inner.depth);
    }
    const size = { fields: Math.min(fields, Number.MAX_SAFE_INTEGER), depth };
    this.sets.set(set, size);
    return size;
  }

  /** the first field (in document order) at a depth beyond `limit`, entering only sets that hold one */
  firstTooDeep(set: SelectionSetNode, depth: number, limit: number): FieldNode | undefined {
    if (depth + this.size(set).depth <= limit) return undefined;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        if (depth > limit) return sel;
        const found = sel.selectionSet && this.firstTooDeep(sel.selectionSet, depth + 1, limit);
        if (found) return found;
        continue;
      }
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const found = this.firstTooDeep(sel.selectionSet, depth, limit);
        if (found) return found;
        continue;
      }
      const fragment = this.fragments.get(sel.name.value);
      if (!fragment || this.visiting.has(fragment.name.value)) continue;
      this.visiting.add(fragment.name.value);
      const found = this.firstTooDeep(fragment.selectionSet, depth, limit);
      this.visiting.delete(fragment.name.value);
      if (found) return found;
    }
    return undefined;
  }
}

export function documentLimitsRule(limits: DocumentLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const sizes = new DocumentSizes(fragmentsOf(context.getDocument().definitions));
    return {
      OperationDefinition(op: OperationDefinitionNode) {
        const name = op.name?.value ?? '';
        if (op.selectionSet.selections.length > limits.rootFields) {
          context.reportError(new GraphQLError(`'${name}' has more than ${limits.rootFields} root fields`, { nodes: [op] }));
          return;
        }
        if (sizes.size(op.selectionSet).fields > limits.fields) {
          context.reportError(new GraphQLError(`'${name}' selects more than ${limits.fields} fields`, { nodes: [op] }));
          return;
        }
        const tooDeep = sizes.firstTooDeep(op.selectionSet, 0, limits.depth);
        if (tooDeep) context.reportError(new GraphQLError(`'${name}' exceeds maximum operation depth of ${limits.depth}`, { nodes: [tooDeep] }));
      },
    };
  };
}
