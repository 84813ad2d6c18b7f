import type { UserRole } from '../generated/prisma/client.ts';
import { roleAtLeast } from '../accounts/users.ts';

/**
 * The one set of permission scopes. GraphQL fields name one in `authScopes` (schema/builder.ts) and
 * every HTTP route of the app names one too (`requireScope`), so a route never answers data that the
 * GraphQL field returning the same data refuses. Roles rank owner > admin > analyst > viewer > agent.
 * - `signedIn`: any user, agents included; fields and routes with it narrow the data to an agent's own calls.
 * - `member`: viewer and above — account-wide data (reports, templates, the team).
 * - `analyst`: analyst and above — reviewing, re-analysing, uploading.
 * - `admin`, `owner`: settings, keys, users; the audit log.
 */
export const SCOPES = ['signedIn', 'member', 'analyst', 'admin', 'owner'] as const;
export type Scope = (typeof SCOPES)[number];

export function scopesOf(role: UserRole | null | undefined): Record<Scope, boolean> {
  return {
    signedIn: !!role,
    member: !!role && roleAtLeast(role, 'viewer'),
    analyst: !!role && roleAtLeast(role, 'analyst'),
    admin: !!role && roleAtLeast(role, 'admin'),
    owner: role === 'owner',
  };
}

export function hasScope(role: UserRole | null | undefined, scope: Scope): boolean {
  return scopesOf(role)[scope];
}
