import { Criteria, parseColumn } from '../call-columns.ts';
import type { CriterionOutcome } from '../call-columns.ts';
import type { Db, Tx } from '../db/client.ts';
import { recordAudit } from '../accounts/audit.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import {
  cleanNote,
  lockCall,
  type Reviewer,
  templateOf,
  weightOf,
  withResult,
  writeEffectiveCriteria,
} from './review.ts';
import { enqueueCallReviewed, refreshCallAnalyzedPayloads } from '../webhooks/enqueue.ts';

/**
 * A reviewer's override of one criterion (issue 10.3): effective values on the call, the history
 * row, the audit entry and the webhooks, in one transaction. Here rather than in src/domain
 * because it reaches the webhooks, which build on src/domain.
 */

export interface OverrideInput {
  callId: string;
  key: string;
  result: CriterionOutcome;
  note: string;
  /** The dispute this override accepts, when it comes from the dispute queue. */
  disputeId?: string | null;
}

/** One override, in the caller's transaction (a dispute's acceptance shares it). */
export async function overrideInTx(
  tx: Tx,
  reviewer: Reviewer,
  input: OverrideInput,
  publicUrl: string,
  now = new Date(),
) {
  const note = cleanNote(input.note);
  const call = await lockCall(tx, reviewer.accountId, input.callId);
  if (!call) throw notFound('Call');
  if (call.status !== 'analyzed') {
    throw new DomainError(
      'not_ready',
      call.status === 'analyzing'
        ? 'This call is being analyzed; review it when the analysis is done.'
        : 'Only analyzed calls have results to review.',
    );
  }
  const criteria = parseColumn(Criteria, call.criteria) ?? [];
  const index = criteria.findIndex((c) => c.key === input.key);
  if (index < 0) throw notFound('Criterion');
  const template = await templateOf(tx, call.templateId);
  const current = criteria[index]!;
  const auto = current.auto_result ?? current.result;
  criteria[index] = {
    ...withResult(current, input.result, weightOf(current, template)),
    auto_result: auto,
    review: { note, by_id: reviewer.id, by_name: reviewer.name, at: now.toISOString() },
  };
  // Calls analyzed before reviews existed got auto_score in the migration; the last argument covers any other.
  const totals = await writeEffectiveCriteria(
    tx,
    call.id,
    criteria,
    template,
    { at: now, byId: reviewer.id },
    call.autoScore ?? call.score,
  );
  const review = await tx.criterionReview.create({
    data: {
      accountId: reviewer.accountId,
      callId: call.id,
      criterionKey: input.key,
      autoResult: auto,
      fromResult: current.result,
      toResult: input.result,
      note,
      reviewerId: reviewer.id,
      reviewerName: reviewer.name,
      disputeId: input.disputeId ?? null,
      scoreBefore: call.score,
      scoreAfter: totals.score,
      createdAt: now,
    },
  });
  await recordAudit(tx, {
    accountId: reviewer.accountId,
    actorUserId: reviewer.id,
    action: 'criterion.overridden',
    targetType: 'call',
    targetId: call.id,
    detail: {
      criterion: input.key,
      criterion_label: current.label,
      from: current.result,
      to: input.result,
      note,
      score_before: call.score,
      score_after: totals.score,
      ...(input.disputeId ? { dispute_id: input.disputeId } : {}),
    },
  });
  // Redeliveries and replays of this call's call.analyzed now send the reviewed result (same
  // event id); endpoints that opted in also get a call.reviewed event.
  await refreshCallAnalyzedPayloads(tx, call.id, publicUrl);
  await enqueueCallReviewed(tx, call.id, review.id.toString(), publicUrl);
  return review;
}

export async function overrideCriterion(db: Db, reviewer: Reviewer, input: OverrideInput, publicUrl: string) {
  return db.$transaction((tx) => overrideInTx(tx, reviewer, input, publicUrl));
}
