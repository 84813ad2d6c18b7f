import { recordAudit } from '../accounts/audit.ts';
import { type CallViewer, isAgentUser } from '../auth/call-scope.ts';
import { Criteria, parseColumn } from '../call-columns.ts';
import type { Db, Tx } from '../db/client.ts';
import { DomainError, found, notFound } from '../domain/errors.ts';
import { cleanNote } from '../review/review.ts';
import { enqueueCoachingEvent } from '../webhooks/enqueue.ts';
import { coachingEvent, coachingForEvent } from './coaching-event.ts';

/*
 * Coaching (issue 31.3). A manager or analyst turns one or more criteria of a call into a coaching
 * item for the call's agent: what to improve, the moments of the recording that show it, an
 * optional due day. The agent acknowledges it; the manager marks it done with a note. The states
 * are data (COACHING_MOVES) and every move writes its time and who made it; assigning and
 * completing are audited and announced to the endpoints that opt in (coaching.assigned,
 * coaching.completed), in the transaction that makes the change.
 */

export const COACHING_STATUSES = ['open', 'acknowledged', 'done'] as const;
export type CoachingStatus = (typeof COACHING_STATUSES)[number];

/** The allowed moves. Done is final; an agent may acknowledge only before it is done. */
export const COACHING_MOVES: Record<CoachingStatus, readonly CoachingStatus[]> = {
  open: ['acknowledged', 'done'],
  acknowledged: ['done'],
  done: [],
};

/** At most this many moments per item: a handful of places to listen to, not a transcript. */
export const MAX_MOMENTS = 20;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Who assigns or completes: an analyst or above of the account. */
export interface Coach {
  id: string;
  accountId: string;
  name: string;
}

export interface AssignInput {
  callId: string;
  criterionKeys: string[];
  improve: string;
  moments?: number[] | null;
  /** A calendar day (YYYY-MM-DD) in the account's time zone. */
  dueOn?: string | null;
}

function parseDueOn(value: string | null | undefined): Date | null {
  if (value == null || value === '') return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (!DAY.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value)
    throw new DomainError('invalid_input', 'dueOn: must be a date written YYYY-MM-DD.');
  return d;
}

function cleanMoments(moments: number[], duration: number | null): number[] {
  if (moments.length > MAX_MOMENTS)
    throw new DomainError('invalid_input', `moments: at most ${MAX_MOMENTS} moments per coaching item.`);
  // A second of slack past the end, as comments allow: durations are rounded.
  const bad = moments.find((m) => !Number.isFinite(m) || m < 0 || (duration !== null && m > duration + 1));
  if (bad !== undefined) throw new DomainError('invalid_input', 'moments: each moment must be within the recording.');
  return [...new Set(moments.map((m) => Math.round(m * 10) / 10))].sort((a, b) => a - b);
}

/** Assigns a coaching item to the call's agent, from criteria of that call. */
export async function assignCoaching(db: Db, coach: Coach, input: AssignInput, publicUrl: string, now = new Date()) {
  const improve = cleanNote(input.improve, 'What to improve');
  const keys = [...new Set(input.criterionKeys.map((k) => k.trim()).filter(Boolean))];
  if (keys.length === 0) throw new DomainError('invalid_input', 'criterionKeys: choose at least one criterion.');
  const dueOn = parseDueOn(input.dueOn);
  return db.$transaction(async (tx) => {
    const call = await tx.call.findFirst({
      where: { id: input.callId, accountId: coach.accountId },
      select: { id: true, agentId: true, status: true, criteria: true, durationSeconds: true },
    });
    if (!call) throw notFound('Call');
    if (call.status !== 'analyzed') throw new DomainError('not_ready', 'Only a scored call can be coached from.');
    const criteria = parseColumn(Criteria, call.criteria) ?? [];
    if (keys.some((k) => !criteria.some((c) => c.key === k))) throw notFound('Criterion');
    const moments = cleanMoments(input.moments ?? [], call.durationSeconds);
    const item = await tx.coachingItem.create({
      data: {
        accountId: coach.accountId,
        callId: call.id,
        agentId: call.agentId,
        criterionKeys: keys,
        improve,
        moments,
        dueOn,
        assignedById: coach.id,
        assignedAt: now,
      },
    });
    await recordAudit(tx, {
      accountId: coach.accountId,
      actorUserId: coach.id,
      action: 'coaching.assigned',
      targetType: 'coaching_item',
      targetId: item.id,
      detail: { callId: call.id, agentId: call.agentId, criterionKeys: keys },
    });
    await announce(tx, item.id, 'coaching.assigned', publicUrl, now);
    return item;
  });
}

/** The agent (an agent user linked to the item's agent) has read the item. Twice keeps the first time. */
export async function acknowledgeCoaching(db: Db, user: CallViewer & { id: string }, id: string, now = new Date()) {
  if (!isAgentUser(user))
    throw new DomainError('forbidden', 'Only the agent a coaching item is for acknowledges it (role agent).');
  return db.$transaction(async (tx) => {
    const item = await tx.coachingItem.findFirst({
      where: { id, accountId: user.accountId, agentId: user.agentId ?? undefined },
    });
    if (!item || !user.agentId) throw notFound('Coaching item');
    if (item.status !== 'open') return item;
    // Conditional: a manager completing it meanwhile wins; the agent then sees it done.
    await tx.coachingItem.updateMany({
      where: { id, status: 'open' },
      data: { status: 'acknowledged', acknowledgedAt: now, acknowledgedById: user.id },
    });
    return tx.coachingItem.findUniqueOrThrow({ where: { id } });
  });
}

/** The manager marks the item done with a note. Done is final. */
export async function completeCoaching(
  db: Db,
  coach: Coach,
  input: { id: string; note: string },
  publicUrl: string,
  now = new Date(),
) {
  const note = cleanNote(input.note, 'A note');
  return db.$transaction(async (tx) => {
    const item = await found(
      tx.coachingItem.findFirst({ where: { id: input.id, accountId: coach.accountId } }),
      'Coaching item',
    );
    // A conditional update: of two managers completing at once, one wins and the other is told.
    const moved = await tx.coachingItem.updateMany({
      where: { id: item.id, status: { in: ['open', 'acknowledged'] } },
      data: { status: 'done', completedAt: now, completedById: coach.id, completionNote: note },
    });
    if (moved.count === 0) throw new DomainError('coaching_done', 'This coaching item is already done.');
    await recordAudit(tx, {
      accountId: coach.accountId,
      actorUserId: coach.id,
      action: 'coaching.completed',
      targetType: 'coaching_item',
      targetId: item.id,
      detail: { callId: item.callId, agentId: item.agentId },
    });
    await announce(tx, item.id, 'coaching.completed', publicUrl, now);
    return tx.coachingItem.findUniqueOrThrow({ where: { id: item.id } });
  });
}

async function announce(
  tx: Tx,
  id: string,
  type: 'coaching.assigned' | 'coaching.completed',
  publicUrl: string,
  now: Date,
) {
  const item = await tx.coachingItem.findUniqueOrThrow({ where: { id }, select: coachingForEvent });
  await enqueueCoachingEvent(tx, item, type, () => coachingEvent(item, type, publicUrl, now));
}

/** The per-agent view's tabs: open (not done, overdue included), overdue, done. */
export const COACHING_VIEWS = ['open', 'overdue', 'done'] as const;
export type CoachingView = (typeof COACHING_VIEWS)[number];

/**
 * Today in the account's time zone: an item is overdue once its due day has passed there, so a
 * manager in Madrid and the server in UTC agree on which items are late.
 */
export async function accountToday(db: Db | Tx, accountId: string): Promise<Date> {
  const [row] = await db.$queryRaw<{ today: Date }[]>`
    SELECT (now() AT TIME ZONE a.time_zone)::date AS today FROM accounts a WHERE a.id = ${accountId}::uuid`;
  return row?.today ?? new Date(new Date().toISOString().slice(0, 10));
}

export const isOverdue = (item: { status: string; dueOn: Date | null }, today: Date) =>
  item.status !== 'done' && item.dueOn !== null && item.dueOn < today;

/** The Prisma condition for a list: the viewer's scope (an agent user sees only their own), agent, call, view. */
export function coachingWhere(
  viewer: CallViewer,
  args: { agentId?: string | null; callId?: string | null; view?: CoachingView | null },
  today: Date,
) {
  const own = isAgentUser(viewer) ? (viewer.agentId ?? '00000000-0000-0000-0000-000000000000') : null;
  const agentId =
    own && args.agentId && args.agentId !== own ? '00000000-0000-0000-0000-000000000000' : (own ?? args.agentId);
  return {
    accountId: viewer.accountId,
    ...(agentId ? { agentId } : {}),
    ...(args.callId ? { callId: args.callId } : {}),
    ...(args.view === 'done'
      ? { status: 'done' }
      : args.view === 'open'
        ? { status: { not: 'done' } }
        : args.view === 'overdue'
          ? { status: { not: 'done' }, dueOn: { lt: today } }
          : {}),
  };
}
