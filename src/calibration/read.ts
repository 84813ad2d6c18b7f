import type { AuditFilter } from '../accounts/audit-query.ts';
import { roleAtLeast } from '../accounts/users.ts';
import { parseColumn } from '../call-columns.ts';
import type { Db } from '../db/client.ts';
import { notFound } from '../domain/errors.ts';
import type { Prisma, UserRole } from '../generated/prisma/client.ts';
import { type CalibrationResults, calibrationResults, type Outcome } from './results.ts';
import { MachineAnswers, SessionCriteria, type SessionCriterion } from './sessions.ts';

/**
 * Who reads what of a calibration (issue 31.1). Managers (admin and above) see every session of
 * the account; analysts see the sessions they grade. While a session is open nobody sees anyone's
 * answers but their own, nor the machine's: `results` and the frozen machine answers exist only
 * once it is closed, and the call lookup hides a grader's open-session calls (blindCallsWhere).
 */

export interface Viewer {
  id: string;
  accountId: string;
  role: UserRole;
}

export const isManager = (v: Pick<Viewer, 'role'>) => roleAtLeast(v.role, 'admin');

const INCLUDE = {
  template: { select: { name: true } },
  createdBy: { select: { name: true } },
  calls: { orderBy: { position: 'asc' as const } },
  graders: {
    include: { user: { select: { name: true } } },
    orderBy: [{ benchmark: 'asc' as const }, { user: { name: 'asc' as const } }, { userId: 'asc' as const }],
  },
} satisfies Prisma.CalibrationSessionInclude;

type Row = Prisma.CalibrationSessionGetPayload<{ include: typeof INCLUDE }>;

export interface SessionView {
  id: string;
  name: string;
  status: 'open' | 'closed';
  templateName: string | null;
  createdByName: string | null;
  createdAt: Date;
  closedAt: Date | null;
  appliedAt: Date | null;
  criteria: SessionCriterion[];
  callIds: string[];
  graders: { userId: string; name: string; benchmark: boolean; submitted: boolean; answered: number }[];
  /** The viewer's seat, if they grade this session. */
  mySeat: 'grader' | 'benchmark' | null;
  canManage: boolean;
  myAnswers: { callId: string; criterionKey: string; result: Outcome }[];
  results: CalibrationResults | null;
}

/** Sessions the viewer may see; newest first. */
function visible(viewer: Viewer): Prisma.CalibrationSessionWhereInput {
  return isManager(viewer)
    ? { accountId: viewer.accountId }
    : { accountId: viewer.accountId, graders: { some: { userId: viewer.id } } };
}

export async function listSessions(db: Db, viewer: Viewer): Promise<SessionView[]> {
  const rows = await db.calibrationSession.findMany({
    where: visible(viewer),
    include: INCLUDE,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 100,
  });
  return Promise.all(rows.map((r) => view(db, viewer, r, false)));
}

export async function readSession(db: Db, viewer: Viewer, id: string): Promise<SessionView | null> {
  const row = await db.calibrationSession.findFirst({ where: { id, ...visible(viewer) }, include: INCLUDE });
  return row ? view(db, viewer, row, true) : null;
}

async function view(db: Db, viewer: Viewer, row: Row, withResults: boolean): Promise<SessionView> {
  const closed = row.status === 'closed';
  const answers = await db.calibrationAnswer.findMany({
    // While open, only the viewer's own answers ever leave the database.
    where: { sessionId: row.id, ...(closed && withResults ? {} : { userId: viewer.id }) },
    select: { callId: true, userId: true, criterionKey: true, result: true },
  });
  const counts = await db.calibrationAnswer.groupBy({
    by: ['userId'],
    where: { sessionId: row.id },
    _count: { _all: true },
  });
  const criteria = parseColumn(SessionCriteria, row.criteria) ?? [];
  const seat = row.graders.find((g) => g.userId === viewer.id);
  const typed = answers.map((a) => ({ ...a, result: a.result as Outcome }));
  return {
    id: row.id,
    name: row.name,
    status: closed ? 'closed' : 'open',
    templateName: row.template?.name ?? null,
    createdByName: row.createdBy?.name ?? null,
    createdAt: row.createdAt,
    closedAt: row.closedAt,
    appliedAt: row.appliedAt,
    criteria,
    callIds: row.calls.map((c) => c.callId),
    graders: row.graders.map((g) => ({
      userId: g.userId,
      name: g.user.name,
      benchmark: g.benchmark,
      submitted: !!g.submittedAt,
      answered: counts.find((c) => c.userId === g.userId)?._count._all ?? 0,
    })),
    mySeat: seat ? (seat.benchmark ? 'benchmark' : 'grader') : null,
    canManage: isManager(viewer),
    myAnswers: typed.filter((a) => a.userId === viewer.id),
    results:
      closed && withResults
        ? calibrationResults({
            criteria,
            calls: row.calls.map((c) => ({
              callId: c.callId,
              machine: (parseColumn(MachineAnswers, c.machine) ?? null) as Record<string, Outcome> | null,
            })),
            graders: row.graders.map((g) => ({ userId: g.userId, name: g.user.name, benchmark: g.benchmark })),
            answers: typed,
          })
        : null,
  };
}

/**
 * THE blind rule (issue 31.1): a user grades a call blind while it belongs to an open session
 * where they hold a seat (grader or benchmark). Every path that could show a call's score or
 * verdicts derives from this one condition: the lookups and embedded calls through
 * `blindCallsWhere`, the lists (calls, CSV, review queue) through `blindCallIds`.
 */
function openSeatWhere(userId: string): Prisma.CalibrationCallWhereInput {
  return { session: { status: 'open', graders: { some: { userId } } } };
}

/**
 * Calls a user must not look up while grading them blind: a Prisma condition for any query on
 * calls, or on what embeds one (`{ call: blindCallsWhere(id) }`: disputes, coaching items).
 */
export function blindCallsWhere(userId: string): Prisma.CallWhereInput {
  return { calibrations: { none: openSeatWhere(userId) } };
}

/**
 * Webhook deliveries the user may read or act on: a delivery's payload carries its call's score and
 * verdicts, so none of a call they grade blind (the list, and redelivering one, which answers with
 * the receiver's reply to it).
 */
export function blindDeliveriesWhere(userId: string): Prisma.WebhookDeliveryWhereInput {
  return { OR: [{ callId: null }, { call: blindCallsWhere(userId) }] };
}

/** The ids of the calls the user grades blind now (at most a few sessions' calls; usually none). */
export async function blindCallIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.calibrationCall.findMany({ where: openSeatWhere(userId), select: { callId: true } });
  return [...new Set(rows.map((r) => r.callId))];
}

/**
 * A filter that also leaves out the calls the user grades blind: the calls list (its counts and the
 * CSV export), the dashboard's reports and their CSVs (src/reports/reports.ts subtracts those calls'
 * rows from the rollups) and machine agreement. Unchanged — so counts still come from the kept
 * counters and rollups alone — for everyone who holds no seat in an open session.
 */
export async function blindFilter<F extends { excludeCallIds?: readonly string[] | null }>(
  db: Db,
  userId: string,
  filter: F,
): Promise<F> {
  const ids = await blindCallIds(db, userId);
  return ids.length ? { ...filter, excludeCallIds: ids } : filter;
}

/**
 * The audit log's filter (GraphQL and CSV) less the entries about the calls the user grades blind:
 * the calls' own (overrides, from → to), their coaching items' and their disputes' (a rejected
 * dispute says the verdict stood). Unchanged for everyone who holds no seat in an open session.
 */
export async function blindAuditFilter(db: Db, userId: string, filter: AuditFilter): Promise<AuditFilter> {
  const ids = await blindCallIds(db, userId);
  if (!ids.length) return filter;
  const disputes = await db.dispute.findMany({ where: { callId: { in: ids } }, select: { id: true } });
  return { ...filter, excludeCallIds: ids, excludeDisputeIds: disputes.map((d) => d.id) };
}

/**
 * For the mutations that act on one call and answer with it (override, re-analysis, review queue
 * marks, coaching, dispute replies): a call graded blind is refused as an unknown one.
 */
export async function assertNotBlind(db: Db, userId: string, callId: string): Promise<void> {
  const blind = await db.call.count({ where: { id: callId, NOT: blindCallsWhere(userId) } });
  if (blind) throw notFound('Call');
}
