import { enqueue } from '../jobs/catalog.ts';
import type { Db, Tx } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { Storage } from '../storage/storage.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { recordAudit } from '../accounts/audit.ts';
import { type CallFilter, callFilterWhere } from './calls-filter.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import { type Actor, roleAtLeast } from '../accounts/users.ts';
import { assertOwnIds } from '../accounts/own-ids.ts';

/** What deletion and retention need of the app (an AppContext fits; domain does not import the app). */
export interface DataContext {
  db: Db;
  storage: Pick<Storage, 'delete'>;
  log: Pick<Logger, 'warn'>;
}

/** Calls deleted in one transaction; a bulk deletion above this many runs as the delete-calls job. */
export const DELETE_BATCH = 500;

export interface DeletedCall {
  id: string;
  externalId: string | null;
}

function assertCanDelete(actor: Actor) {
  if (!roleAtLeast(actor.role, 'admin')) throw new DomainError('forbidden', 'Only owners and admins delete calls.');
}

/**
 * Deletes up to `limit` calls matching `where` (conditions over `calls c`) in the caller's
 * transaction, and returns them with the storage keys whose files must go after the commit.
 *
 * The call ROW goes (so every trigger-kept counter and rollup on calls sees a DELETE and stays
 * exact); its history (call_events) and webhook deliveries go with it by cascade, because their
 * payloads carry the transcript and analysis. What stays: a tombstone with the id and
 * external_id (intake answers `exists` from it and never charges again), and the minute ledger
 * (history: no foreign key), so minutes already charged stay charged. A call still in progress
 * gives back its reservation, as a failed call would. Its stored bytes leave the period's
 * storage use and are counted as freed.
 */
export async function deleteCallRows(
  tx: Tx,
  accountId: string,
  deletedById: string | null,
  where: Prisma.Sql[],
  limit = DELETE_BATCH,
): Promise<{ calls: DeletedCall[]; storageKeys: string[] }> {
  // Rows are locked in key order first: a worker settling a call holds its row (transition()
  // before settleMinutes), so the release below sees its settle and never gives minutes back twice.
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM calls c WHERE ${Prisma.join(where, ' AND ')} ORDER BY c.id LIMIT ${limit} FOR UPDATE`;
  const ids = locked.map((r) => r.id);
  if (!ids.length) return { calls: [], storageKeys: [] };
  await tx.$executeRaw`
    WITH released AS (
      INSERT INTO minute_ledger (account_id, call_id, period, kind, minutes)
      SELECT c.account_id, c.id, c.period, 'release', 0 FROM calls c
       WHERE c.id = ANY(${ids}::uuid[])
         AND NOT EXISTS (SELECT 1 FROM minute_ledger l WHERE l.call_id = c.id AND l.kind IN ('settle', 'release'))
      ON CONFLICT (call_id, kind) DO NOTHING
      RETURNING call_id, period
    )
    UPDATE usage_periods u
       SET minutes_reserved = u.minutes_reserved - r.minutes
      FROM (SELECT released.period, sum(l.minutes)::int AS minutes
              FROM released JOIN minute_ledger l ON l.call_id = released.call_id AND l.kind = 'reserve'
             GROUP BY released.period) r
     WHERE u.account_id = ${accountId}::uuid AND u.period = r.period`;
  const gone = await tx.$queryRaw<{ id: string; external_id: string | null; storage_key: string; has_file: boolean }[]>`
    WITH gone AS (
      DELETE FROM calls c WHERE c.id = ANY(${ids}::uuid[]) AND c.account_id = ${accountId}::uuid
      RETURNING c.id, c.external_id, c.period, c.file_size, c.storage_key, c.recording_deleted_at IS NULL AS has_file
    ), tombstones AS (
      INSERT INTO call_tombstones (id, account_id, external_id, deleted_by_id)
      SELECT id, ${accountId}::uuid, external_id, ${deletedById}::uuid FROM gone
      ON CONFLICT DO NOTHING
    ), freed AS (
      -- Unclamped: intake counted the bytes on a stripe, so the row alone may go below zero (usage_totals sums).
      UPDATE usage_periods u
         SET storage_bytes = u.storage_bytes - f.bytes,
             storage_freed_bytes = u.storage_freed_bytes + f.bytes
        FROM (SELECT period, sum(file_size)::bigint AS bytes FROM gone WHERE has_file GROUP BY period) f
       WHERE u.account_id = ${accountId}::uuid AND u.period = f.period
    )
    SELECT id, external_id, storage_key, has_file FROM gone ORDER BY id`;
  return {
    calls: gone.map((g) => ({ id: g.id, externalId: g.external_id })),
    storageKeys: gone.filter((g) => g.has_file).map((g) => g.storage_key),
  };
}

/**
 * Removes files after the commit that deleted their calls. A crash before (or a failing store)
 * leaves files no call refers to, which the hourly housekeeping job removes; so this never throws.
 */
export async function removeStoredFiles(app: Pick<DataContext, 'storage' | 'log'>, keys: string[]): Promise<void> {
  for (const key of keys) {
    await app.storage
      .delete(key)
      .catch((error: unknown) => app.log.warn({ err: error, key }, 'stored recording not removed; housekeeping will'));
  }
}

/** Deletes one call of the actor's account (owners and admins); audited as `call.deleted`. */
export async function deleteCall(app: DataContext, actor: Actor, callId: string): Promise<DeletedCall> {
  assertCanDelete(actor);
  const { calls, storageKeys } = await app.db.$transaction(async (tx) => {
    const result = await deleteCallRows(tx, actor.accountId, actor.id, [
      Prisma.sql`c.account_id = ${actor.accountId}::uuid`,
      Prisma.sql`c.id = ${callId}::uuid`,
    ]);
    const call = result.calls[0];
    if (!call) throw notFound('Call');
    await recordAudit(tx, {
      accountId: actor.accountId,
      actorUserId: actor.id,
      action: 'call.deleted',
      targetType: 'call',
      targetId: call.id,
      detail: { externalId: call.externalId },
    });
    return result;
  });
  await removeStoredFiles(app, storageKeys);
  return calls[0]!;
}

/**
 * The conditions of a bulk deletion: the calls list's filter, limited to calls received up to
 * `createdBefore` (the moment the user saw the count), so calls arriving meanwhile are not deleted.
 */
function bulkWhere(accountId: string, filter: CallFilter, createdBefore: Date): Prisma.Sql[] {
  return [...callFilterWhere(accountId, filter), Prisma.sql`c.created_at <= ${createdBefore}`];
}

/** How many calls a bulk deletion with this filter would delete now (shown before confirming). */
export async function countCallsToDelete(app: DataContext, accountId: string, filter: CallFilter, now = new Date()) {
  const [row] = await app.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM calls c WHERE ${Prisma.join(bulkWhere(accountId, filter, now), ' AND ')}`;
  return row?.n ?? 0;
}

export interface BulkDeletion {
  count: number;
  /** True when the calls are deleted by the delete-calls job (more than one batch). */
  queued: boolean;
}

/**
 * Deletes every call matching the calls list's filter. `expectedCount` is the count the user
 * confirmed; when the filter now matches another number, nothing is deleted (`count_changed`,
 * with the new count) and the user confirms again. Up to one batch is deleted at once; more are
 * handed to the delete-calls job, which deletes them batch by batch. Audited once as `calls.deleted`.
 */
export async function deleteCallsMatching(
  app: DataContext,
  actor: Actor,
  filter: CallFilter,
  expectedCount: number,
  now = new Date(),
): Promise<BulkDeletion> {
  assertCanDelete(actor);
  // The filter goes into the audit entry (and the job): it must not name another account's objects.
  await assertOwnIds(app.db, actor.accountId, {
    agentIds: filter.agentIds,
    campaignIds: filter.campaignIds,
    templateIds: filter.templateIds,
  });
  const where = bulkWhere(actor.accountId, filter, now);
  const { count, queued, storageKeys } = await app.db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM calls c WHERE ${Prisma.join(where, ' AND ')}`;
      const count = row?.n ?? 0;
      if (count !== expectedCount)
        throw new DomainError(
          'count_changed',
          `The filter now matches ${count} call(s), not ${expectedCount}; confirm again with the new count.`,
          { count },
        );
      const detail = { filter: filterDetail(filter), count };
      const queued = count > DELETE_BATCH;
      let storageKeys: string[] = [];
      if (queued) {
        await enqueue(tx, 'delete-calls', {
          accountId: actor.accountId,
          deletedById: actor.id,
          filter: filterDetail(filter),
          createdBefore: now.toISOString(),
        });
      } else if (count > 0) {
        storageKeys = (await deleteCallRows(tx, actor.accountId, actor.id, where, count)).storageKeys;
      }
      await recordAudit(tx, {
        accountId: actor.accountId,
        actorUserId: actor.id,
        action: 'calls.deleted',
        targetType: 'calls',
        detail: { ...detail, ...(queued && { queued: true }) },
      });
      return { count, queued, storageKeys };
    },
    { timeout: 60_000 },
  );
  await removeStoredFiles(app, storageKeys);
  return { count, queued };
}

/** The delete-calls job's work: one batch per transaction until nothing matches (safe to rerun). */
export async function runBulkDeletion(
  app: DataContext,
  job: { accountId: string; deletedById: string | null; filter: CallFilter; createdBefore: Date },
): Promise<number> {
  const where = bulkWhere(job.accountId, job.filter, job.createdBefore);
  let total = 0;
  for (;;) {
    const { calls, storageKeys } = await app.db.$transaction((tx) =>
      deleteCallRows(tx, job.accountId, job.deletedById, where),
    );
    await removeStoredFiles(app, storageKeys);
    total += calls.length;
    if (calls.length < DELETE_BATCH) return total;
  }
}

/** The filter as JSON (dates as ISO strings), for the audit entry and the job's payload. */
export function filterDetail(f: CallFilter): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v == null || (Array.isArray(v) && !v.length)) continue;
    out[k] = v instanceof Date ? v.toISOString() : (v as string | number | boolean | string[]);
  }
  return out;
}

/** Reads a filter back from filterDetail's JSON. */
export function filterFromDetail(d: Record<string, unknown>): CallFilter {
  const date = (v: unknown) => (typeof v === 'string' ? new Date(v) : null);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null);
  return {
    view: str(d.view) as CallFilter['view'],
    startedFrom: date(d.startedFrom),
    startedTo: date(d.startedTo),
    agentIds: ids(d.agentIds),
    campaignIds: ids(d.campaignIds),
    direction: str(d.direction) as CallFilter['direction'],
    scoreMin: num(d.scoreMin),
    scoreMax: num(d.scoreMax),
    topic: str(d.topic),
    language: str(d.language),
    failedCriterion: str(d.failedCriterion),
    criticalFail: typeof d.criticalFail === 'boolean' ? d.criticalFail : null,
    search: str(d.search),
  };
}
