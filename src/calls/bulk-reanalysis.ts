import { enqueue, JOBS } from '../jobs/catalog.ts';
import type { Db, Tx } from '../db/client.ts';
import { type AuditBy, recordBy } from '../accounts/audit.ts';
import { type BulkReanalysis, Prisma } from '../generated/prisma/client.ts';
import { type CallFilter, callFilterWhere } from './calls-filter.ts';
import { DomainError, found } from '../domain/errors.ts';
import { assertOwnIds } from '../accounts/own-ids.ts';
import { requestReanalysis } from './reanalyze.ts';

/** Calls one run of the job moves to `analyzing` before it hands the worker back and queues itself again. */
export const BULK_BATCH = 50;

/**
 * A bulk re-analysis: every call matching the calls list's filter (optionally only those scored
 * with one template), each put through the single-call re-analysis (`requestReanalysis`: same
 * checks, same `transition()`, same revision bump, reviewed results kept as it keeps them), in
 * batches of the `bulk-reanalyze` job, whose priority — and that of the analyze jobs it queues —
 * is below transcription and new calls' analysis, so a 10,000-call re-run never delays new calls.
 */
export interface BulkScope {
  filter: CallFilter;
  templateId?: string | null;
}

/**
 * The calls a bulk re-analysis covers, as SQL over `calls c`: the list's filter, only calls that have
 * a transcript to analyze (analyzed or transcribed-not-analyzed), the template when given, and only
 * calls that existed when it was asked for (`until`), so the count shown first is the count worked
 * through even while new calls arrive.
 */
function scopeWhere(accountId: string, scope: BulkScope, until?: Date): Prisma.Sql {
  const where = callFilterWhere(accountId, scope.filter);
  where.push(Prisma.sql`c.status IN ('analyzed', 'transcribed')`);
  if (scope.templateId) where.push(Prisma.sql`c.template_id = ${scope.templateId}::uuid`);
  if (until) where.push(Prisma.sql`c.created_at <= ${until}`);
  return Prisma.join(where, ' AND ');
}

/** How many calls a bulk re-analysis of `scope` would cover now: the number shown before confirming. */
export async function countBulkReanalysis(db: Db | Tx, accountId: string, scope: BulkScope): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM calls c WHERE ${scopeWhere(accountId, scope)}`;
  return Number(row?.n ?? 0);
}

/** The filter as stored (JSON: dates as ISO text) and read back. */
function storedFilter(f: CallFilter): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(f)) as Prisma.InputJsonObject;
}
function readFilter(json: unknown): CallFilter {
  const f = (json ?? {}) as Record<string, unknown> & CallFilter;
  return {
    ...f,
    startedFrom: f.startedFrom ? new Date(f.startedFrom) : null,
    startedTo: f.startedTo ? new Date(f.startedTo) : null,
  };
}

/** The one place the bulk-reanalyze job is added; its key keeps one job per bulk re-analysis. */
async function scheduleBatch(tx: Tx, id: string) {
  await enqueue(tx, 'bulk-reanalyze', { bulkId: id });
}

/**
 * Records a bulk re-analysis with the number of calls it covers (counted in the same transaction
 * as the row, so `total` is what the user confirmed) and queues its first batch.
 */
export async function startBulkReanalysis(
  db: Db,
  accountId: string,
  requestedById: string,
  scope: BulkScope,
): Promise<BulkReanalysis> {
  // Ids of another account (or unknown ones) would match no call, but the row would keep them: refuse
  // them as not found rather than store a filter that refers to another tenant's objects.
  await assertOwnIds(db, accountId, {
    agentIds: scope.filter.agentIds,
    campaignIds: scope.filter.campaignIds,
    templateIds: [...(scope.filter.templateIds ?? []), ...(scope.templateId ? [scope.templateId] : [])],
  });
  return db.$transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM calls c WHERE ${scopeWhere(accountId, scope, now)}`;
    const total = Number(row?.n ?? 0);
    const bulk = await tx.bulkReanalysis.create({
      data: {
        accountId,
        requestedById,
        filter: storedFilter(scope.filter),
        templateId: scope.templateId ?? null,
        total,
        createdAt: now,
        ...(total === 0 && { status: 'finished', finishedAt: now }),
      },
    });
    if (total > 0) await scheduleBatch(tx, bulk.id);
    const template = scope.templateId
      ? await tx.template.findFirst({ where: { id: scope.templateId, accountId }, select: { name: true } })
      : null;
    await recordBy(
      tx,
      { userId: requestedById },
      {
        accountId,
        action: 'bulk_reanalysis.started',
        targetType: 'bulk_reanalysis',
        targetId: bulk.id,
        detail: { count: total, ...(template && { template: template.name }), filter: storedFilter(scope.filter) },
      },
    );
    return bulk;
  });
}

export async function getBulkReanalysis(db: Db, accountId: string, id: string): Promise<BulkReanalysis | null> {
  return db.bulkReanalysis.findFirst({ where: { id, accountId } });
}

/**
 * Stops a running bulk re-analysis. The job checks the status before each call, so no call is
 * requested after this returns; calls already requested finish their analysis.
 */
export async function cancelBulkReanalysis(
  db: Db,
  accountId: string,
  id: string,
  by?: AuditBy,
): Promise<BulkReanalysis> {
  const bulk = await found(db.bulkReanalysis.findFirst({ where: { id, accountId } }), 'Bulk re-analysis');
  if (bulk.status !== 'running') {
    throw new DomainError('not_ready', `This bulk re-analysis is already ${bulk.status}.`);
  }
  return db.$transaction(async (tx) => {
    const { count } = await tx.bulkReanalysis.updateMany({
      where: { id, status: 'running' },
      data: { status: 'cancelled', finishedAt: new Date() },
    });
    const row = await tx.bulkReanalysis.findUniqueOrThrow({ where: { id } });
    if (by && count)
      await recordBy(tx, by, {
        accountId,
        action: 'bulk_reanalysis.cancelled',
        targetType: 'bulk_reanalysis',
        targetId: id,
        detail: { count: row.total, requested: row.requested },
      });
    return row;
  });
}

/**
 * One run of the job: up to BULK_BATCH calls after the resume point, in (started_at, id) order.
 * Each call is claimed by moving the resume point past it only if the bulk re-analysis is still
 * running and no other run claimed it (a job presumed dead may still be running), then
 * re-analyzed; a call that cannot be (being processed, no template any more) counts as skipped.
 * Returns true when more remain (the job is queued again). A worker killed mid-batch resumes
 * after the last claimed call.
 */
export async function runBulkReanalysisBatch(db: Db, id: string): Promise<boolean> {
  const bulk = await db.bulkReanalysis.findUnique({ where: { id } });
  if (bulk?.status !== 'running') return false;
  const scope: BulkScope = { filter: readFilter(bulk.filter), templateId: bulk.templateId };
  const after =
    bulk.cursorStartedAt && bulk.cursorId
      ? Prisma.sql`AND (c.started_at, c.id) > (${bulk.cursorStartedAt}, ${bulk.cursorId}::uuid)`
      : Prisma.empty;
  const batch = await db.$queryRaw<{ id: string; started_at: Date }[]>`
    SELECT c.id, c.started_at FROM calls c
     WHERE ${scopeWhere(bulk.accountId, scope, bulk.createdAt)} ${after}
     ORDER BY c.started_at, c.id
     LIMIT ${BULK_BATCH}`;
  for (const call of batch) {
    // The claim doubles as the cancel check: a cancelled run claims nothing and stops here.
    const claimed = await db.$executeRaw`
      UPDATE bulk_reanalyses SET cursor_started_at = ${call.started_at}, cursor_id = ${call.id}::uuid
       WHERE id = ${id}::uuid AND status = 'running'
         AND (cursor_id IS NULL OR (cursor_started_at, cursor_id) < (${call.started_at}, ${call.id}::uuid))`;
    if (claimed === 0) return false;
    let ok = true;
    try {
      await requestReanalysis(db, bulk.accountId, call.id, bulk.requestedById ?? 'unknown', {
        priority: JOBS['bulk-reanalyze'].priority,
        detail: `bulk re-analysis ${id}`,
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      ok = false;
    }
    await db.$executeRaw`
      UPDATE bulk_reanalyses SET requested = requested + ${ok ? 1 : 0}, skipped = skipped + ${ok ? 0 : 1}
       WHERE id = ${id}::uuid`;
  }
  if (batch.length < BULK_BATCH) {
    await db.bulkReanalysis.updateMany({
      where: { id, status: 'running' },
      data: { status: 'finished', finishedAt: new Date() },
    });
    return false;
  }
  await db.$transaction((tx) => scheduleBatch(tx, id));
  return true;
}

export interface BulkOutcomes {
  /** Requested calls analyzed since. */
  analyzed: number;
  /** Requested calls whose analysis gave no score (back to transcribed) or that failed. */
  failed: number;
  /** Requested calls still waiting for or in analysis. */
  waiting: number;
}

/**
 * Where the calls a bulk re-analysis requested are now — "queued" is not "done" (issue 26: the bar
 * was full when nothing had been analyzed yet). The requested calls are those whose history names
 * this bulk re-analysis (requestReanalysis writes the detail); each is looked up through the
 * (call_id, at) index, so the cost is one index probe per call of the account's scope: polled
 * only while a progress dialog is open.
 */
export async function bulkOutcomes(db: Db, bulk: Pick<BulkReanalysis, 'id' | 'accountId' | 'createdAt'>) {
  const rows = await db.$queryRaw<{ status: string; n: number }[]>`
    SELECT c.status::text AS status, count(*)::int AS n FROM calls c
     WHERE c.account_id = ${bulk.accountId}::uuid
       AND EXISTS (SELECT 1 FROM call_events e
                    WHERE e.call_id = c.id AND e.at >= ${bulk.createdAt}
                      AND e.detail LIKE ${`bulk re-analysis ${bulk.id} %`})
     GROUP BY c.status`;
  const out: BulkOutcomes = { analyzed: 0, failed: 0, waiting: 0 };
  for (const r of rows) {
    if (r.status === 'analyzed') out.analyzed += r.n;
    else if (r.status === 'analyzing') out.waiting += r.n;
    else out.failed += r.n;
  }
  return out;
}
