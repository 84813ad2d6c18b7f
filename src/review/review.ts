import { belowMinCoverage, coverage, score } from '../analysis/analyze.ts';
import { parseTemplate, type TemplateDefinition } from '../analysis/template.ts';
import { Criteria, type CriterionOutcome, type CriterionResult, parseColumn } from '../call-columns.ts';
import type { Db, Tx } from '../db/client.ts';
import { DomainError } from '../domain/errors.ts';
import { assertCleanText } from '../domain/text.ts';

/**
 * Human review (issue 10.3). A reviewer overrides a criterion's result with a note; the call's
 * `score`, `criteria`, `coverage` and `needs_review` then hold the EFFECTIVE values (every reader —
 * list, CSV, webhooks, reports' rollups — reads those columns), while `auto_score` and each
 * overridden criterion's `auto_result` keep what the analysis said. `criterion_reviews` is the
 * revision history. Score and coverage are recomputed by the analysis's own functions. The
 * override itself (which also writes the audit entry and the webhooks) is src/review/override.ts.
 */

export interface Reviewer {
  id: string;
  accountId: string;
  name: string;
}

export const NOTE_MAX = 2000;

export function cleanNote(note: string, what = 'A note'): string {
  assertCleanText(note, 'note');
  const trimmed = note.trim();
  if (!trimmed) throw new DomainError('invalid_input', `${what} is required.`);
  if (trimmed.length > NOTE_MAX)
    throw new DomainError('invalid_input', `${what} can have at most ${NOTE_MAX} characters.`);
  return trimmed;
}

/** The criterion with `result` as its effective outcome; points follow the result as in the analysis. */
export function withResult(c: CriterionResult, result: CriterionOutcome, weight: number): CriterionResult {
  return { ...c, result, weight, points: result === 'passed' ? weight : 0, max_points: result === 'na' ? 0 : weight };
}

/**
 * The weight of a criterion: stored with the result since reviews exist; for older calls, its
 * max points when it was evaluated, else the template's weight for that key.
 */
export function weightOf(c: CriterionResult, template: TemplateDefinition | null): number {
  if (c.weight !== undefined) return c.weight;
  if (c.max_points > 0) return c.max_points;
  return template?.criteria.find((t) => t.key === c.key)?.weight ?? 1;
}

/**
 * Score, coverage and needs-review of a set of criteria. Coverage is over the weights the call
 * was scored with (its criteria), so a template edited since does not change an old call's share.
 */
export function effectiveTotals(criteria: CriterionResult[], template: TemplateDefinition | null) {
  const weights = criteria.map((c) => ({ weight: weightOf(c, template) }));
  const cover = coverage({ criteria: weights }, criteria);
  return {
    score: score(criteria),
    coverage: cover,
    needsReview: template ? belowMinCoverage(template, cover) : false,
  };
}

/**
 * Re-applies the reviewed results of `previous` (the call's criteria before a re-analysis) onto
 * the new automatic results: a criterion a person corrected stays corrected, its `auto_result`
 * becoming the new analysis's answer. Criteria no longer in the template are dropped with it.
 */
export function carryOverReviews(
  previous: CriterionResult[] | null,
  fresh: CriterionResult[],
  template: TemplateDefinition,
): { criteria: CriterionResult[]; reviewed: boolean } {
  const reviewedByKey = new Map((previous ?? []).filter((c) => c.auto_result !== undefined).map((c) => [c.key, c]));
  let reviewed = false;
  const criteria = fresh.map((c) => {
    const old = reviewedByKey.get(c.key);
    if (!old) return c;
    reviewed = true;
    return { ...withResult(c, old.result, weightOf(c, template)), auto_result: c.result, review: old.review };
  });
  return { criteria, reviewed };
}

/** The criteria as the analysis left them: every override undone (re-analysis that discards reviews). */
export function automaticCriteria(criteria: CriterionResult[], template: TemplateDefinition | null): CriterionResult[] {
  return criteria.map((c) => {
    if (c.auto_result === undefined) return c;
    const { auto_result, review: _review, ...rest } = c;
    return withResult(rest, auto_result, weightOf(c, template));
  });
}

export async function templateOf(tx: Tx | Db, templateId: string | null): Promise<TemplateDefinition | null> {
  if (!templateId) return null;
  const row = await tx.template.findUnique({ where: { id: templateId }, select: { definition: true } });
  const parsed = row ? parseTemplate(row.definition) : null;
  return parsed?.ok ? parsed.template : null;
}

/**
 * Writes `criteria` as the call's effective results with the totals they give, and who reviewed
 * them last (`null` when the results are automatic again). The one writer of those columns for
 * overrides and for discarded reviews, so they never drift apart.
 */
export async function writeEffectiveCriteria(
  tx: Tx,
  callId: string,
  criteria: CriterionResult[],
  template: TemplateDefinition | null,
  reviewed: { at: Date; byId: string } | null,
  autoScore?: number | null,
) {
  const totals = effectiveTotals(criteria, template);
  await tx.call.update({
    where: { id: callId },
    data: {
      criteria: criteria as object[],
      score: totals.score,
      coverage: totals.coverage,
      needsReview: totals.needsReview,
      ...(autoScore !== undefined ? { autoScore } : {}),
      reviewedAt: reviewed?.at ?? null,
      reviewedById: reviewed?.byId ?? null,
    },
  });
  return totals;
}

/** Locks the call's row for the rest of the transaction, so two reviewers (or a review and an analysis) queue up. */
export async function lockCall(tx: Tx, accountId: string, callId: string) {
  await tx.$queryRaw`SELECT id FROM calls WHERE id = ${callId}::uuid AND account_id = ${accountId}::uuid FOR UPDATE`;
  return tx.call.findFirst({ where: { id: callId, accountId } });
}

/**
 * For a re-analysis that discards reviews: puts the automatic results back now, in the
 * transaction that requests the analysis, and writes the undoing into the history.
 */
export async function discardReviews(tx: Tx, reviewer: Reviewer, callId: string, now = new Date()): Promise<void> {
  const call = await tx.call.findFirst({ where: { id: callId, accountId: reviewer.accountId } });
  const criteria = parseColumn(Criteria, call?.criteria) ?? [];
  if (!call || !criteria.some((c) => c.auto_result !== undefined)) return;
  const template = await templateOf(tx, call.templateId);
  const totals = await writeEffectiveCriteria(tx, call.id, automaticCriteria(criteria, template), template, null);
  for (const c of criteria.filter((x) => x.auto_result !== undefined)) {
    await tx.criterionReview.create({
      data: {
        accountId: reviewer.accountId,
        callId: call.id,
        criterionKey: c.key,
        autoResult: c.auto_result!,
        fromResult: c.result,
        toResult: c.auto_result!,
        note: 'Review discarded by a re-analysis.',
        reviewerId: reviewer.id,
        reviewerName: reviewer.name,
        scoreBefore: call.score,
        scoreAfter: totals.score,
        createdAt: now,
      },
    });
  }
}
