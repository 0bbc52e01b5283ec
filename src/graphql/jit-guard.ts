// graphql-jit (0.8) compiles the coercion of a document's variables by unrolling their input types, with no
// end for recursive ones: a variable of any `…FiltersInput` (which nests itself through `and`/`or`/`not`)
// makes the compiler run until the process is out of memory. Such documents run on graphql-js instead: the
// guard answers, once per document, whether a variable is of an input object type.
import { getNamedType, isInputObjectType, typeFromAST, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';

export function jitUnsafeDocuments(schema: GraphQLSchema): (document: DocumentNode) => boolean {
  const seen = new WeakMap<DocumentNode, boolean>();
  return (document) => {
    let unsafe = seen.get(document);
    if (unsafe === undefined) {
      unsafe = document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && (d.variableDefinitions ?? []).some((v) => {
        const type = typeFromAST(schema, v.type as never);
        return type !== undefined && isInputObjectType(getNamedType(type));
      }));
      seen.set(document, unsafe);
    }
    return unsafe;
  };
}
