import type { Tx } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { type CallStatus, isAllowed, NONE, type Source } from './statuses.ts';

export interface TransitionOptions {
  /** History text shown in the app (`call_events.detail`). */
  detail: string;
  /** Columns written together with the status (results, failure reason, revision bump…). */
  data?: Omit<Prisma.CallUncheckedUpdateManyInput, 'id' | 'status'>;
  /** Further guards besides the expected status, e.g. `{ analysisRevision }` for a stale job. */
  where?: Omit<Prisma.CallWhereInput, 'id' | 'status'>;
}

/**
 * The one place a call's status changes. In the caller's transaction: moves the call from `from`
 * (one status or several) to `to` with a conditional UPDATE, and writes the history row. Returns
 * false, changing nothing, when the call is no longer in `from` (a job run twice, two clicks, a
 * stale revision): callers treat that as "someone else did it". The live-update NOTIFY comes from
 * the `calls_notify_updated` trigger, fired by this UPDATE (and by intake's INSERT).
 *
 * `from` = 'none' is the call's creation: the INSERT that made the row (status 'queued') is the
 * guard, so only the history row is written.
 */
export async function transition<To extends CallStatus>(
  tx: Tx,
  callId: string,
  from: Source<To> | readonly Source<To>[],
  to: To,
  opts: TransitionOptions,
): Promise<boolean> {
  const sources: readonly string[] = Array.isArray(from) ? from : [from];
  for (const f of sources) {
    if (!isAllowed(f as Source<To>, to)) throw new Error(`call status cannot go from ${f} to ${to}`);
  }
  if (!sources.includes(NONE)) {
    const moved = await tx.call.updateMany({
      where: { ...opts.where, id: callId, status: { in: sources as CallStatus[] } },
      data: { ...opts.data, status: to },
    });
    if (moved.count === 0) return false;
  }
  await tx.callEvent.create({ data: { callId, status: to, detail: opts.detail } });
  return true;
}

/**
 * The creation step ('none' → 'queued') as SQL, for intake's one-statement insert: the history row
 * of every call id that `created` (a query yielding `id`) returns. The INSERT that made those rows
 * is the guard, as in `transition(tx, id, NONE, 'queued', …)`.
 */
export function creationEventSql(created: Prisma.Sql, detail: string): Prisma.Sql {
  if (!isAllowed(NONE, 'queued')) throw new Error('call status cannot go from none to queued');
  return Prisma.sql`INSERT INTO call_events (call_id, status, detail)
      SELECT created.id, 'queued'::"CallStatus", ${detail} FROM (${created}) AS created`;
}
