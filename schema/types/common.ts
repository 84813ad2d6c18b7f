import { isUuid } from '../../src/accounts/api-keys.ts';
import { notFound } from '../../src/domain/errors.ts';
import type { Actor } from '../../src/accounts/users.ts';
import type { AuditBy } from '../../src/accounts/audit.ts';
import { GraphQLError } from '../graphql-js.ts';
import type { AuthSession } from '../../src/auth/session.ts';
import type { GraphQLContext } from '../context.ts';
import { builder } from '../builder.ts';
import { ALL_ERRORS } from './errors.ts';

/**
 * The signed-in user. Auth scopes already guarantee a session; throwing here as well means a field
 * that forgot its scope still cannot run without a tenant.
 */
export function sessionOf(ctx: GraphQLContext): AuthSession {
  if (!ctx.session) throw new GraphQLError('Sign in first.', { extensions: { code: 'UNAUTHENTICATED' } });
  return ctx.session;
}

export function actorOf(ctx: GraphQLContext): Actor {
  const u = sessionOf(ctx).user;
  return { id: u.id, accountId: u.accountId, role: u.role };
}

export const accountIdOf = (ctx: GraphQLContext) => sessionOf(ctx).user.accountId;

/** The signed-in user as the author of an audited change (src/accounts/audit.ts). */
export const byUser = (ctx: GraphQLContext): AuditBy => ({ userId: sessionOf(ctx).user.id });
/** The signed-in user as a viewer of calls (an agent user sees only their agent's calls). */
export const callViewerOf = (ctx: GraphQLContext) => sessionOf(ctx).user;

/** Options for a mutation returning an object type directly in its result union. */
export const directErrors = { types: ALL_ERRORS, directResult: true } as const;
/** Options for a mutation returning a scalar, wrapped in a `…Success { data }` object. */
export const wrappedErrors = { types: ALL_ERRORS } as const;

export const UserRoleEnum = builder.enumType('UserRole', {
  description: [
    'Roles are ordered; each includes everything below it.',
    '- VIEWER: reads calls, agents, campaigns, templates, usage and the team.',
    '- ANALYST: also re-analyzes calls (one or in bulk), works the review queue, manages templates (incl. preview) and campaigns.',
    '- ADMIN: also manages agents (they occupy paid seats), users and invitations, API keys and the webhook.',
    '- OWNER: also grants or removes the owner role; an account always keeps at least one owner.',
    "- AGENT: below viewer; linked to one agent of the team, sees only that agent's calls, acknowledges them and disputes criteria.",
  ].join('\n'),
  values: {
    OWNER: { value: 'owner' },
    ADMIN: { value: 'admin' },
    ANALYST: { value: 'analyst' },
    VIEWER: { value: 'viewer' },
    AGENT: { value: 'agent' },
  } as const,
});

/** A malformed id cannot exist, so it is reported exactly like an id of another account. */
export function parseUuid(id: string | number, what: string): string {
  const s = String(id);
  if (!isUuid(s)) throw notFound(what);
  return s;
}

export function uuidOrNull(id: string | number): string | null {
  const s = String(id);
  return isUuid(s) ? s : null;
}

/** A lookup by id: a malformed id, like an id of another account, finds nothing (null). */
export function byId<T>(id: string | number, find: (id: string) => T): T | null {
  const uuid = uuidOrNull(id);
  return uuid ? find(uuid) : null;
}

/**
 * Rows of an account-wide list the calls list's filters show (agents, campaigns, templates), from
 * the api process's cache when it has one (src/calls/filter-options-cache.ts: dropped at once
 * when any of them changes). `part` names the list and its arguments; the GraphQL selection is
 * part of the key. Only plain columns are cached: rows with relations beneath them could change
 * without the cache hearing of it, so those are always read. The rows are the same for every
 * member of the account (roles are checked on each field, on every request, before and after).
 */
export function cachedRows<T>(ctx: GraphQLContext, part: string, query: object, load: () => Promise<T>): Promise<T> {
  const cache = ctx.app.filterOptions;
  if (!cache) return load();
  const plain = Object.values(query).every(
    (sel) => typeof sel !== 'object' || sel === null || Object.values(sel).every((v) => v === true),
  );
  return plain ? cache.get(accountIdOf(ctx), `${part}:${JSON.stringify(query)}`, load) : load();
}
