import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { findUncleanText } from '../domain/text.ts';
import type { GraphQLContext } from '../../schema/context.ts';
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, validate, visit } from '../../schema/graphql-js.ts';

/**
 * Issue 16 guards that apply to every operation before any resolver runs:
 * - text hygiene: every string argument (inline literal or variable, JSON included, keys too)
 *   with NUL or an unpaired surrogate is refused with `invalid_text` naming the argument, so new
 *   fields are covered without listing them;
 * - introspection only for signed-in users in production (GRAPHQL_INTROSPECTION=on opens it).
 */
export function hostileInputPlugin(config: Config): Plugin<GraphQLContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as GraphQLContext;
      const unclean = findUncleanText(args.variableValues ?? {}, '$') ?? findUncleanLiteral(args.document);
      if (unclean) {
        return setResultAndStopExecution({
          errors: [
            new GraphQLError(`\`${unclean.field}\` contains ${unclean.problem}; send valid Unicode text without NUL.`, {
              extensions: { code: 'invalid_text', field: unclean.field },
            }),
          ],
        });
      }
      if (!config.graphqlIntrospection && !ctx.session) {
        const refused = validate(args.schema, args.document, [NoSchemaIntrospectionCustomRule]);
        if (refused.length) {
          setResultAndStopExecution({
            errors: [
              new GraphQLError('Sign in to introspect the schema.', {
                extensions: { code: 'unauthenticated', http: { status: 401 } },
              }),
            ],
          });
        }
      }
    },
  };
}

function findUncleanLiteral(document: Parameters<typeof visit>[0]): { field: string; problem: string } | null {
  let found: { field: string; problem: string } | null = null;
  const args: string[] = [];
  visit(document, {
    Argument: {
      enter: (node) => void args.push(node.name.value),
      leave: () => void args.pop(),
    },
    StringValue(node) {
      if (found) return;
      found = findUncleanText(node.value, args.at(-1) ?? 'argument');
    },
    ObjectField(node) {
      if (!found && node.value.kind === Kind.STRING) found = findUncleanText(node.value.value, node.name.value);
    },
  });
  return found;
}
