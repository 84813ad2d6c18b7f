import type { Db } from '../db/client.ts';

/**
 * The coaching report (issue 31.3): per agent, the items still open (acknowledged or not), how
 * many of those are overdue (their due day has passed in the account's time zone), and how many
 * are done — over the items assigned in an optional range of days (account time zone), so a
 * manager can ask "what did we coach this quarter" as well as "what is late now".
 */
export interface CoachingReportRow {
  agentId: string;
  agentName: string;
  open: number;
  acknowledged: number;
  overdue: number;
  done: number;
}

export async function coachingReport(
  db: Db,
  accountId: string,
  range: {
    from?: string | null;
    to?: string | null;
    /** Not a user's filter: items made from the calls the reader grades blind (src/calibration/read.ts). */
    excludeCallIds?: readonly string[] | null;
  } = {},
): Promise<CoachingReportRow[]> {
  const rows = await db.$queryRaw<
    { agent_id: string; agent_name: string; open: number; acknowledged: number; overdue: number; done: number }[]
  >`
    WITH a AS (SELECT time_zone, (now() AT TIME ZONE time_zone)::date AS today FROM accounts WHERE id = ${accountId}::uuid)
    SELECT i.agent_id::text, g.name AS agent_name,
           (count(*) FILTER (WHERE i.status <> 'done'))::int AS open,
           (count(*) FILTER (WHERE i.status = 'acknowledged'))::int AS acknowledged,
           (count(*) FILTER (WHERE i.status <> 'done' AND i.due_on < a.today))::int AS overdue,
           (count(*) FILTER (WHERE i.status = 'done'))::int AS done
      FROM coaching_items i
      JOIN agents g ON g.id = i.agent_id
     CROSS JOIN a
     WHERE i.account_id = ${accountId}::uuid
       AND i.call_id <> ALL(${[...(range.excludeCallIds ?? [])]}::uuid[])
       AND (${range.from ?? null}::date IS NULL OR i.assigned_at >= (${range.from ?? null}::date::timestamp AT TIME ZONE a.time_zone))
       AND (${range.to ?? null}::date IS NULL OR i.assigned_at < ((${range.to ?? null}::date + 1)::timestamp AT TIME ZONE a.time_zone))
     GROUP BY 1, 2
     ORDER BY overdue DESC, open DESC, agent_name, 1`;
  return rows.map((r) => ({
    agentId: r.agent_id,
    agentName: r.agent_name,
    open: r.open,
    acknowledged: r.acknowledged,
    overdue: r.overdue,
    done: r.done,
  }));
}
