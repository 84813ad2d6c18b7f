import { enqueue } from '../jobs/catalog.ts';
import type { Db } from '../db/client.ts';
import { transition } from '../lifecycle/transition.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import { discardReviews, type Reviewer } from '../review/review.ts';
import { getApplicableTemplate } from '../accounts/templates.ts';

/**
 * Asks for a call to be analyzed again (after a template change, or a transcribed call that now
 * has a template). The revision bump and the job are one transaction: a job never runs for a
 * revision that was rolled back, and the worker can tell a stale job from the latest request.
 */
export async function requestReanalysis(
  db: Db,
  accountId: string,
  callId: string,
  requestedBy: string,
  /**
   * A bulk re-analysis queues below new calls (`priority`) and names itself in the history (`detail`).
   * Reviewed results are kept by default (the analysis re-applies them on top of its new results);
   * `discardReviewsBy` undoes them now, in the request's transaction, recorded in the history as that user's.
   */
  opts: { priority?: number; detail?: string; discardReviewsBy?: Reviewer } = {},
) {
  const call = await db.call.findFirst({
    where: { id: callId, accountId },
    select: { id: true, status: true, segments: true, campaignId: true, language: true, detectedLanguage: true },
  });
  if (!call) throw notFound('Call');
  // In progress first: a call still queued or transcribing has no transcript *yet*.
  if (call.status === 'queued' || call.status === 'transcribing' || call.status === 'analyzing') {
    throw new DomainError('not_ready', 'This call is still being processed; try again when it is done.');
  }
  if (call.status === 'failed' || call.segments === null) {
    throw new DomainError('not_transcribed', 'This call has no transcript, so it cannot be analyzed.');
  }
  const language = call.language ?? call.detectedLanguage;
  if (!(await getApplicableTemplate(db, { accountId, campaignId: call.campaignId, language }))) {
    throw new DomainError(
      'no_template',
      'No template applies to this call: set an account default template or one on its campaign.',
    );
  }
  return db.$transaction(async (tx) => {
    // The status guard makes two simultaneous clicks enqueue one job, not two.
    const moved = await transition(tx, callId, ['analyzed', 'transcribed'], 'analyzing', {
      detail: `${opts.detail ?? 're-analysis'} requested by user ${requestedBy}`,
      where: { accountId },
      data: { analysisRevision: { increment: 1 } },
    });
    if (!moved) throw new DomainError('not_ready', 'This call is already being analyzed.');
    if (opts.discardReviewsBy) await discardReviews(tx, opts.discardReviewsBy, callId);
    await enqueue(tx, 'analyze', { callId }, opts.priority === undefined ? {} : { priority: opts.priority });
    return tx.call.findUniqueOrThrow({ where: { id: callId } });
  });
}
