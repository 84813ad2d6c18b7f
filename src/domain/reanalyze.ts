import type { Db } from '../db/client.ts';
import { DomainError, notFound } from './errors.ts';
import { getApplicableTemplate } from './templates.ts';

/**
 * Asks for a call to be analyzed again (after a template change, or a transcribed call that now
 * has a template). The revision bump and the job are one transaction: a job never runs for a
 * revision that was rolled back, and the worker can tell a stale job from the latest request.
 */
export async function requestReanalysis(db: Db, accountId: string, callId: string, requestedBy: string) {
  const call = await db.call.findFirst({
    where: { id: callId, accountId },
    select: { id: true, status: true, segments: true, campaignId: true },
  });
  if (!call) throw notFound('Call');
  // In progress first: a call still queued or transcribing has no transcript *yet*.
  if (call.status === 'queued' || call.status === 'transcribing' || call.status === 'analyzing') {
    throw new DomainError('not_ready', 'This call is still being processed; try again when it is done.');
  }
  if (call.status === 'failed' || call.segments === null) {
    throw new DomainError('not_transcribed', 'This call has no transcript, so it cannot be analyzed.');
  }
  if (!(await getApplicableTemplate(db, { accountId, campaignId: call.campaignId }))) {
    throw new DomainError(
      'no_template',
      'No template applies to this call: set an account default template or one on its campaign.',
    );
  }
  return db.$transaction(async (tx) => {
    // The status guard makes two simultaneous clicks enqueue one job, not two.
    const bumped = await tx.$executeRaw`
      UPDATE calls SET analysis_revision = analysis_revision + 1, status = 'analyzing', updated_at = now()
       WHERE id = ${callId}::uuid AND account_id = ${accountId}::uuid AND status IN ('analyzed', 'transcribed')`;
    if (bumped === 0) throw new DomainError('not_ready', 'This call is already being analyzed.');
    await tx.callEvent.create({
      data: { callId, status: 'analyzing', detail: `re-analysis requested by user ${requestedBy}` },
    });
    await tx.$executeRaw`SELECT graphile_worker.add_job('analyze', json_build_object('callId', ${callId}::text), job_key := ${`analyze:${callId}`}, max_attempts := 8, priority := -10)`;
    return tx.call.findUniqueOrThrow({ where: { id: callId } });
  });
}
