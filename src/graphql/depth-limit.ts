import type { Plugin } from 'graphql-yoga';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type SelectionSetNode,
  type ValidationContext,
} from '../../schema/graphql-js.ts';

/**
 * Refuses operations nested deeper than `max`, introspection included: Pothos' complexity limits
 * only see the schema's own fields, while `__schema { types { fields { type { ofType … } } } }`
 * can nest without end.
 */
export function depthLimit(max: number): Plugin {
  const rule = (context: ValidationContext): ASTVisitor => {
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let deepest = 0;
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) deepest = Math.max(deepest, s.selectionSet ? 1 + depthOf(s.selectionSet, seen) : 0);
        else if (s.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(s.selectionSet, seen));
        else if (!seen.has(s.name.value)) {
          const fragment = context.getFragment(s.name.value);
          deepest = Math.max(deepest, depthOf(fragment?.selectionSet, new Set([...seen, s.name.value])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > max) {
          context.reportError(
            new GraphQLError(`The query is nested ${depth} levels deep; the limit is ${max}.`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_DEEP' },
            }),
          );
        }
      },
    };
  };
  return { onValidate: ({ addValidationRule }) => addValidationRule(rule) };
}
