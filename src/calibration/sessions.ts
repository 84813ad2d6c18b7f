import { z } from 'zod';
import { recordAudit } from '../accounts/audit.ts';
import { roleAtLeast } from '../accounts/users.ts';
import { parseTemplate } from '../analysis/template.ts';
import { Criteria, type CriterionOutcome, parseColumn } from '../call-columns.ts';
import { type CallFilter, callFilterWhere } from '../calls/calls-filter.ts';
import type { Db, Tx } from '../db/client.ts';
import { DomainError, found, notFound } from '../domain/errors.ts';
import { assertOwnIds } from '../accounts/own-ids.ts';
import { assertCleanText } from '../domain/text.ts';
import { Prisma } from '../generated/prisma/client.ts';
import type { Reviewer } from '../review/review.ts';

/**
 * Calibration sessions (issue 31.1). A manager picks calls (by hand or a random sample of a calls
 * filter), the template whose criteria everyone answers, the graders and optionally a benchmark
 * grader. Each grader answers every criterion of every call blind; the session closes when every
 * one of them has answered everything, or when the manager closes it. Answers live only here:
 * nothing in this file writes a call, except `applyBenchmark`, which goes through the override path.
 */

export const MAX_CALLS = 50;
export const MAX_GRADERS = 20;
export const NAME_MAX = 200;

export interface SessionCriterion {
  key: string;
  label: string;
}
export const SessionCriteria = z.array(z.object({ key: z.string(), label: z.string() }));
/** The machine's answer per criterion key, frozen when the session closes. */
export const MachineAnswers = z.record(z.string(), z.enum(['passed', 'failed', 'na']));

export interface CreateSessionInput {
  name: string;
  templateId: string;
  /** Calls picked by hand… */
  callIds?: readonly string[] | null;
  /** …or a random sample of `sampleSize` analyzed calls matching a calls-list filter. */
  filter?: CallFilter | null;
  sampleSize?: number | null;
  graderIds: readonly string[];
  benchmarkUserId?: string | null;
}

const invalid = (message: string) => new DomainError('invalid_input', message);

export async function createSession(db: Db, manager: Reviewer, input: CreateSessionInput, now = new Date()) {
  assertCleanText(input.name, 'name');
  const name = input.name.trim();
  if (!name) throw invalid('A session needs a name.');
  if (name.length > NAME_MAX) throw invalid(`A name can have at most ${NAME_MAX} characters.`);
  const template = await db.template.findFirst({
    where: { id: input.templateId, accountId: manager.accountId, deletedAt: null },
  });
  const parsed = template ? parseTemplate(template.definition) : null;
  if (!template || !parsed?.ok) throw notFound('Template');
  const criteria: SessionCriterion[] = parsed.template.criteria.map((c) => ({ key: c.key, label: c.label }));

  const graderIds = [...new Set(input.graderIds)];
  if (graderIds.length < 1) throw invalid('Pick at least one grader.');
  if (graderIds.length > MAX_GRADERS) throw invalid(`A session can have at most ${MAX_GRADERS} graders.`);
  const benchmark = input.benchmarkUserId ?? null;
  const people = await db.user.findMany({
    where: {
      accountId: manager.accountId,
      removedAt: null,
      id: { in: [...graderIds, ...(benchmark ? [benchmark] : [])] },
    },
    select: { id: true, role: true, name: true },
  });
  // Every id is checked before any rule, so an id of another account always answers not found.
  for (const id of [...graderIds, ...(benchmark ? [benchmark] : [])])
    if (!people.some((p) => p.id === id)) throw notFound('User');
  if (input.filter) await assertOwnIds(db, manager.accountId, input.filter);
  const handPicked = [...new Set(input.callIds ?? [])];
  const known = await db.call.findMany({
    where: { id: { in: handPicked }, accountId: manager.accountId },
    select: { id: true, status: true },
  });
  if (known.length !== handPicked.length) throw notFound('Call');
  for (const user of people)
    if (!roleAtLeast(user.role, 'analyst')) throw invalid(`${user.name} cannot grade: graders are analysts or above.`);
  if (benchmark && graderIds.includes(benchmark))
    throw invalid('The benchmark grader is compared with the graders, so they cannot also be one of them.');

  const callIds = await pickCalls(db, manager.accountId, input);

  return db.$transaction(async (tx) => {
    const session = await tx.calibrationSession.create({
      data: {
        accountId: manager.accountId,
        name,
        templateId: template.id,
        criteria: criteria as object[],
        createdById: manager.id,
        createdAt: now,
        calls: { create: callIds.map((callId, position) => ({ callId, position })) },
        graders: {
          create: [
            ...graderIds.map((userId) => ({ userId })),
            ...(benchmark ? [{ userId: benchmark, benchmark: true }] : []),
          ],
        },
      },
    });
    await recordAudit(tx, {
      accountId: manager.accountId,
      actorUserId: manager.id,
      action: 'calibration.created',
      targetType: 'calibration',
      targetId: session.id,
      detail: { name, calls: callIds.length, graders: graderIds.length, benchmark: !!benchmark },
    });
    return session;
  });
}

async function pickCalls(db: Db, accountId: string, input: CreateSessionInput): Promise<string[]> {
  if (input.callIds?.length) {
    if (input.filter || input.sampleSize != null) throw invalid('Pick calls by hand or by a filter, not both.');
    const ids = [...new Set(input.callIds)];
    if (ids.length > MAX_CALLS) throw invalid(`A session can have at most ${MAX_CALLS} calls.`);
    // Existence was checked with the other ids; here only the rule.
    const calls = await db.call.findMany({ where: { id: { in: ids }, accountId }, select: { status: true } });
    if (calls.some((c) => c.status !== 'analyzed'))
      throw new DomainError('not_ready', 'Only analyzed calls can be calibrated: the machine must have answered.');
    return ids;
  }
  const size = input.sampleSize;
  if (size == null) throw invalid('Pick calls by hand, or give a filter and a sample size.');
  if (!Number.isInteger(size) || size < 1 || size > MAX_CALLS)
    throw invalid(`A sample is from 1 to ${MAX_CALLS} calls.`);
  const filter = input.filter ?? {};
  const where = [...callFilterWhere(accountId, filter), Prisma.sql`c.status = 'analyzed'`];
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM calls c WHERE ${Prisma.join(where, ' AND ')} ORDER BY random() LIMIT ${size}`;
  if (!rows.length) throw invalid('No analyzed call matches this filter.');
  return rows.map((r) => r.id);
}

/** The session of the account, locked for the rest of the transaction (answers and closing queue up). */
async function lockSession(tx: Tx, accountId: string, id: string) {
  await tx.$queryRaw`SELECT id FROM calibration_sessions WHERE id = ${id}::uuid AND account_id = ${accountId}::uuid FOR UPDATE`;
  const session = await found(tx.calibrationSession.findFirst({ where: { id, accountId } }), 'Calibration session');
  return session;
}

export interface AnswerInput {
  key: string;
  result: CriterionOutcome;
}

/**
 * A grader's answers for one call (any subset of the criteria; later answers replace earlier
 * ones while the session is open). When the last grader has answered everything the session closes.
 */
export async function saveAnswers(
  db: Db,
  grader: Reviewer,
  sessionId: string,
  callId: string,
  answers: readonly AnswerInput[],
  now = new Date(),
) {
  return db.$transaction(async (tx) => {
    const session = await lockSession(tx, grader.accountId, sessionId);
    const seat = await tx.calibrationGrader.findUnique({
      where: { sessionId_userId: { sessionId, userId: grader.id } },
    });
    // Someone who is not a grader of this session learns nothing of it.
    if (!seat) throw notFound('Calibration session');
    await found(tx.calibrationCall.findUnique({ where: { sessionId_callId: { sessionId, callId } } }), 'Call');
    if (session.status !== 'open') throw new DomainError('calibration_closed', 'This calibration is closed.');
    const keys = new Set(parseColumn(SessionCriteria, session.criteria)?.map((c) => c.key));
    if (!answers.length) throw invalid('Answer at least one criterion.');
    for (const a of answers) if (!keys.has(a.key)) throw notFound('Criterion');
    for (const a of answers) {
      await tx.calibrationAnswer.upsert({
        where: { sessionId_callId_userId_criterionKey: { sessionId, callId, userId: grader.id, criterionKey: a.key } },
        create: { sessionId, callId, userId: grader.id, criterionKey: a.key, result: a.result, updatedAt: now },
        update: { result: a.result, updatedAt: now },
      });
    }
    const calls = await tx.calibrationCall.count({ where: { sessionId } });
    const mine = await tx.calibrationAnswer.count({ where: { sessionId, userId: grader.id } });
    const complete = mine === calls * keys.size;
    if (complete !== !!seat.submittedAt)
      await tx.calibrationGrader.update({
        where: { sessionId_userId: { sessionId, userId: grader.id } },
        data: { submittedAt: complete ? now : null },
      });
    const waiting = await tx.calibrationGrader.count({ where: { sessionId, submittedAt: null } });
    if (waiting === 0) await closeInTx(tx, session.id, grader.accountId, grader.id, 'last_answer', now);
    return { sessionId, closed: waiting === 0 };
  });
}

/** Freezes the machine's answers on each call and closes the session. */
async function closeInTx(
  tx: Tx,
  sessionId: string,
  accountId: string,
  byUserId: string,
  how: 'manager' | 'last_answer',
  now: Date,
) {
  const calls = await tx.calibrationCall.findMany({
    where: { sessionId },
    select: { callId: true, call: { select: { criteria: true } } },
  });
  for (const c of calls) {
    const machine = Object.fromEntries(
      (parseColumn(Criteria, c.call.criteria) ?? []).map((r) => [r.key, r.auto_result ?? r.result]),
    );
    await tx.calibrationCall.update({
      where: { sessionId_callId: { sessionId, callId: c.callId } },
      data: { machine },
    });
  }
  await tx.calibrationSession.update({ where: { id: sessionId }, data: { status: 'closed', closedAt: now } });
  await recordAudit(tx, {
    accountId,
    actorUserId: byUserId,
    action: 'calibration.closed',
    targetType: 'calibration',
    targetId: sessionId,
    // The last grader to answer closes it as surely as a manager who closes it early.
    detail: { closed_by: how },
  });
}

/** The manager closes the session before everyone has answered: missing answers stay missing. */
export async function closeSession(db: Db, manager: Reviewer, sessionId: string, now = new Date()) {
  await db.$transaction(async (tx) => {
    const session = await lockSession(tx, manager.accountId, sessionId);
    if (session.status !== 'open') throw new DomainError('calibration_closed', 'This calibration is already closed.');
    await closeInTx(tx, session.id, manager.accountId, manager.id, 'manager', now);
  });
}
