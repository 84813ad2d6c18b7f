import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ComplexityPlugin from '@pothos/plugin-complexity';
import { GraphQLError } from './graphql-js.ts';
import type PrismaTypes from '../src/generated/pothos-prisma-types.ts';
import { getDatamodel } from '../src/generated/pothos-prisma-types.ts';
import { type Scope, scopesOf } from '../src/auth/scopes.ts';
import type { GraphQLContext, SignedInContext } from './context.ts';

/** Hard cap on any page size; larger `first`/`last` values are clamped, not rejected. */
export const MAX_PAGE_SIZE = 100;

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  // Role scopes are "at least": owner > admin > analyst > viewer > agent (see schema/types/user.ts for who may do
  // what). `member` is viewer and above, so every field stays closed to agent users unless it says `signedIn`:
  // only the fields an agent may use (their own calls, disputes, session) do, and they narrow the data themselves.
  AuthScopes: Record<Scope, boolean>;
  AuthContexts: {
    signedIn: SignedInContext;
    member: SignedInContext;
    analyst: SignedInContext;
    admin: SignedInContext;
    owner: SignedInContext;
  };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  // Non-null unless a field says otherwise: clients should not null-check what always exists.
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  // Order matters: scope-auth outermost so an unauthorised caller never reaches error mapping or
  // a database query; errors before prisma so prisma fields can return typed error results.
  plugins: [ScopeAuthPlugin, ErrorsPlugin, PrismaPlugin, RelayPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    // The same scopes gate the app's HTTP routes (src/auth/scopes.ts).
    authScopes: (ctx) => scopesOf(ctx.session?.user.role),
    // A GraphQLError passes yoga's error masking, so clients see a stable code instead of "Unexpected error".
    unauthorizedError: (_parent, ctx) =>
      ctx.session
        ? new GraphQLError('Your role does not allow this.', { extensions: { code: 'FORBIDDEN' } })
        : new GraphQLError('Sign in first.', { extensions: { code: 'UNAUTHENTICATED' } }),
  },
  errors: { defaultTypes: [] },
  prisma: {
    client: (ctx) => ctx.app.db,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
  relay: {
    // Ids are the plain UUIDs used by the intake API, webhooks and app URLs, not Relay global ids.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: 'omit',
    cursorType: 'String',
    // A connection's own field multiplies by the page size; edges must not multiply by the default list factor again.
    edgesFieldOptions: { complexity: { field: 0, multiplier: 1 } },
  },
  complexity: {
    defaultComplexity: 1,
    defaultListMultiplier: 10,
    limit: { complexity: 5000, depth: 12, breadth: 300 },
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
