import type { Prisma, UserRole } from '../generated/prisma/client.ts';
import type { CallFilter } from '../calls/calls-filter.ts';

/**
 * What calls a signed-in user may see. Every role sees the account's calls, except `agent`, who
 * sees only the calls of the agent they are linked to (issue 10.4). Enforced where calls are read
 * (GraphQL list and lookup, recording download, CSV export), not only in the app's navigation.
 */
export interface CallViewer {
  accountId: string;
  role: UserRole;
  agentId: string | null;
}

/** Matches no call: an agent user whose agent link was removed sees nothing rather than everything. */
const NO_AGENT = '00000000-0000-0000-0000-000000000000';

export const isAgentUser = (user: Pick<CallViewer, 'role'>) => user.role === 'agent';

/** The Prisma condition for a call lookup by this user. */
export function callScope(user: CallViewer): Prisma.CallWhereInput {
  return isAgentUser(user)
    ? { accountId: user.accountId, agentId: user.agentId ?? NO_AGENT }
    : { accountId: user.accountId };
}

/**
 * A list filter narrowed to what the user may see: for an agent user, the agent filter becomes
 * their own agent (asking for other agents' calls gives nothing, not their own calls instead).
 */
export function scopeFilter(filter: CallFilter, user: CallViewer): CallFilter {
  if (!isAgentUser(user)) return filter;
  const own = user.agentId ?? NO_AGENT;
  const asked = filter.agentIds;
  return { ...filter, agentIds: asked && asked.length > 0 ? (asked.includes(own) ? [own] : [NO_AGENT]) : [own] };
}
