import { recordAudit } from '../accounts/audit.ts';
import { Criteria, type CriterionOutcome, parseColumn } from '../call-columns.ts';
import type { Db, Tx } from '../db/client.ts';
import { type CallViewer, callScope, isAgentUser } from '../auth/call-scope.ts';
import { DomainError, found, notFound } from '../domain/errors.ts';
import { cleanNote, lockCall, type Reviewer } from './review.ts';
import { overrideInTx } from './override.ts';

/**
 * Agents as users (issue 10.4): an agent acknowledges a scored call or disputes one criterion,
 * within the account's window; analysts accept (the criterion is overridden) or reject with a
 * reply. A dispute's states are data — one table of allowed moves and one function that moves —
 * and every move is kept in `dispute_events` with its time.
 */

export const DISPUTE_STATUSES = ['open', 'accepted', 'rejected'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** The allowed moves. Accepted and rejected are final: a new disagreement is a new dispute. */
export const DISPUTE_MOVES: Record<DisputeStatus, readonly DisputeStatus[]> = {
  open: ['accepted', 'rejected'],
  accepted: [],
  rejected: [],
};

export const canMove = (from: DisputeStatus, to: DisputeStatus) => DISPUTE_MOVES[from].includes(to);

/** The agent user acting: who they are and which agent's calls they may touch. */
export interface AgentUser extends CallViewer {
  id: string;
  name: string;
}

/**
 * The one function that changes a dispute's status: a conditional UPDATE from `from` (false when
 * someone else moved it first), its history row, and `calls.open_disputes` kept exact by counting
 * exactly the moves into and out of `open`.
 */
export async function moveDispute(
  tx: Tx,
  disputeId: string,
  from: DisputeStatus,
  to: DisputeStatus,
  opts: { userId: string | null; note?: string | null; reply?: string | null; now?: Date },
): Promise<boolean> {
  if (!canMove(from, to)) throw new Error(`a dispute cannot go from ${from} to ${to}`);
  const now = opts.now ?? new Date();
  const moved = await tx.dispute.updateMany({
    where: { id: disputeId, status: from },
    data: { status: to, reply: opts.reply ?? null, resolvedById: opts.userId, resolvedAt: now },
  });
  if (moved.count === 0) return false;
  const dispute = await tx.dispute.findUniqueOrThrow({ where: { id: disputeId }, select: { callId: true } });
  const delta = (to === 'open' ? 1 : 0) - (from === 'open' ? 1 : 0);
  if (delta !== 0)
    await tx.call.update({ where: { id: dispute.callId }, data: { openDisputes: { increment: delta } } });
  await tx.disputeEvent.create({
    data: { disputeId, status: to, userId: opts.userId, note: opts.note ?? null, at: now },
  });
  return true;
}

/** When the agent's window on a call closes: `disputeWindowDays` after it was analyzed. */
export function windowClosesAt(analyzedAt: Date | null, days: number): Date | null {
  return analyzedAt ? new Date(analyzedAt.getTime() + days * 86_400_000) : null;
}

/** The agent user's own analyzed call, locked, with the window checked. */
async function ownCallInWindow(tx: Tx, user: AgentUser, callId: string, now: Date) {
  if (!isAgentUser(user))
    throw new DomainError('forbidden', 'Only the agent of a call acknowledges or disputes it (role agent).');
  await lockCall(tx, user.accountId, callId);
  const call = await tx.call.findFirst({
    where: { id: callId, ...callScope(user) },
    include: { account: { select: { disputeWindowDays: true } } },
  });
  if (!call) throw notFound('Call');
  if (call.status !== 'analyzed')
    throw new DomainError('not_ready', 'Only a scored call can be acknowledged or disputed.');
  const closes = windowClosesAt(call.analyzedAt, call.account.disputeWindowDays);
  if (!closes || closes <= now) {
    throw new DomainError(
      'dispute_window_closed',
      `The ${call.account.disputeWindowDays}-day window to acknowledge or dispute this call has closed.`,
      { closedAt: closes?.toISOString() ?? null },
    );
  }
  return call;
}

/** The agent has seen the score and accepts it. Acknowledging twice keeps the first time. */
export async function acknowledgeCall(db: Db, user: AgentUser, callId: string, now = new Date()) {
  return db.$transaction(async (tx) => {
    const call = await ownCallInWindow(tx, user, callId, now);
    if (call.acknowledgedAt) return call;
    return tx.call.update({ where: { id: call.id }, data: { acknowledgedAt: now, acknowledgedById: user.id } });
  });
}

export async function openDispute(
  db: Db,
  user: AgentUser,
  input: { callId: string; key: string; comment: string },
  now = new Date(),
) {
  const comment = cleanNote(input.comment, 'A comment');
  return db.$transaction(async (tx) => {
    const call = await ownCallInWindow(tx, user, input.callId, now);
    const criteria = parseColumn(Criteria, call.criteria) ?? [];
    if (!criteria.some((c) => c.key === input.key)) throw notFound('Criterion');
    // The call's row lock (ownCallInWindow) serialises this check with a concurrent dispute.
    const open = await tx.dispute.count({ where: { callId: call.id, criterionKey: input.key, status: 'open' } });
    if (open > 0) throw new DomainError('already_disputed', 'This criterion already has an open dispute.');
    const dispute = await tx.dispute.create({
      data: {
        accountId: user.accountId,
        callId: call.id,
        criterionKey: input.key,
        comment,
        openedById: user.id,
        openedAt: now,
      },
    });
    await tx.call.update({ where: { id: call.id }, data: { openDisputes: { increment: 1 } } });
    await tx.disputeEvent.create({
      data: { disputeId: dispute.id, status: 'open', userId: user.id, note: comment, at: now },
    });
    return dispute;
  });
}

/** What accepting a dispute sets the criterion to when the analyst does not say: the other verdict. */
export function disputedOutcome(current: CriterionOutcome): CriterionOutcome {
  return current === 'passed' ? 'failed' : 'passed';
}

/**
 * An analyst's answer. Accepting overrides the criterion (to `result`, by default the opposite of
 * its current result) with the reply as the review note, in the same transaction; rejecting keeps
 * the result and sends the reply back to the agent.
 */
export async function resolveDispute(
  db: Db,
  reviewer: Reviewer,
  input: { id: string; accept: boolean; reply: string; result?: CriterionOutcome | null },
  publicUrl: string,
  now = new Date(),
) {
  const reply = cleanNote(input.reply, 'A reply');
  return db.$transaction(async (tx) => {
    const dispute = await found(
      tx.dispute.findFirst({ where: { id: input.id, accountId: reviewer.accountId } }),
      'Dispute',
    );
    // Lock the call first (as overrides do), so the dispute and the override move together.
    const call = await lockCall(tx, reviewer.accountId, dispute.callId);
    if (!call) throw notFound('Dispute');
    const to: DisputeStatus = input.accept ? 'accepted' : 'rejected';
    const moved = await moveDispute(tx, dispute.id, dispute.status as DisputeStatus, to, {
      userId: reviewer.id,
      note: reply,
      reply,
      now,
    }).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('a dispute cannot go'))
        throw new DomainError('dispute_closed', `This dispute was already ${dispute.status}.`);
      throw error;
    });
    if (!moved) throw new DomainError('dispute_closed', 'This dispute was answered meanwhile.');
    if (input.accept) {
      const current = (parseColumn(Criteria, call.criteria) ?? []).find((c) => c.key === dispute.criterionKey);
      if (!current) throw notFound('Criterion');
      await overrideInTx(
        tx,
        reviewer,
        {
          callId: call.id,
          key: dispute.criterionKey,
          result: input.result ?? disputedOutcome(current.result),
          note: reply,
          disputeId: dispute.id,
        },
        publicUrl,
        now,
      );
    } else {
      const current = (parseColumn(Criteria, call.criteria) ?? []).find((c) => c.key === dispute.criterionKey);
      await recordAudit(tx, {
        accountId: reviewer.accountId,
        actorUserId: reviewer.id,
        action: 'dispute.rejected',
        targetType: 'dispute',
        targetId: dispute.id,
        detail: { criterion: dispute.criterionKey, criterion_label: current?.label ?? dispute.criterionKey, reply },
      });
    }
    return tx.dispute.findUniqueOrThrow({ where: { id: dispute.id } });
  });
}
