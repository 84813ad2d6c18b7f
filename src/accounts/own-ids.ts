import type { Db, Tx } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { notFound } from '../domain/errors.ts';

/** "No campaign" in a campaign filter (the reports' and the calls list's), not an object's id. */
const NO_CAMPAIGN = '00000000-0000-0000-0000-000000000000';

const TABLES = {
  agentIds: ['agents', 'Agent'],
  campaignIds: ['campaigns', 'Campaign'],
  templateIds: ['templates', 'Template'],
} as const;

/**
 * For mutations that STORE ids they were given (a bulk re-analysis's filter, a bulk deletion's
 * audit entry and job): every id must name an object of the caller's account, else the whole
 * request is refused as not found — exactly as an unknown id is — so no row of one account ever
 * refers to another account's objects. Queries need not call this: their filters simply match nothing.
 */
export async function assertOwnIds(
  db: Db | Tx,
  accountId: string,
  ids: {
    agentIds?: readonly string[] | null;
    campaignIds?: readonly string[] | null;
    templateIds?: readonly string[] | null;
  },
): Promise<void> {
  for (const key of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
    const wanted = [...new Set(ids[key] ?? [])].filter((id) => !(key === 'campaignIds' && id === NO_CAMPAIGN));
    if (!wanted.length) continue;
    const [table, what] = TABLES[key];
    const [row] = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM ${Prisma.raw(table)}
       WHERE account_id = ${accountId}::uuid AND id = ANY(${wanted}::uuid[])`;
    if ((row?.n ?? 0) !== wanted.length) throw notFound(what);
  }
}
