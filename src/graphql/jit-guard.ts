// Which documents graphql-jit (0.8, through mercurius 16) may compile; the others run on graphql-js:
// - variables of input object types: graphql-jit compiles their coercion by unrolling the types, with no end for
//   recursive ones (every `…FiltersInput` nests itself through `and`/`or`/`not`): the process ran out of memory;
// - several operations: mercurius keeps one compiled query per document text and runs it whatever
//   `operationName` asks for (a GET naming a query ran the document's mutation);
// - large documents: each compiled one stays in mercurius' cache with its generated code (megabytes for a few
//   thousand fields).
// Answered once per document.
import { getNamedType, isInputObjectType, typeFromAST, visit, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';

/** fields a document may have and still be compiled */
export const MAX_JIT_FIELDS = 500;

function fieldCount(document: DocumentNode): number {
  let n = 0;
  visit(document, { Field: () => void n++ });
  return n;
}

export function jitUnsafeDocuments(schema: GraphQLSchema): (document: DocumentNode) => boolean {
  const seen = new WeakMap<DocumentNode, boolean>();
  return (document) => {
    let unsafe = seen.get(document);
    if (unsafe === undefined) {
      const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      unsafe = operations.length !== 1 || fieldCount(document) > MAX_JIT_FIELDS || operations.some((d) => (d.variableDefinitions ?? []).some((v) => {
        const type = typeFromAST(schema, v.type as never);
        return type !== undefined && isInputObjectType(getNamedType(type));
      }));
      seen.set(document, unsafe);
    }
    return unsafe;
  };
}
