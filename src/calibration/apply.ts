import { recordAudit } from '../accounts/audit.ts';
import { Criteria, type CriterionOutcome, parseColumn } from '../call-columns.ts';
import type { Db } from '../db/client.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import { overrideInTx } from '../review/override.ts';
import type { Reviewer } from '../review/review.ts';

/**
 * The one way a calibration changes calls (issue 31.1): the manager applies the benchmark grader's
 * answers. Each answer that differs from the call's current result becomes an ordinary override —
 * the same path as a reviewer's, so score, history, audit entry and webhooks follow — with a note
 * naming the session. Answers equal to the current result change nothing; calls no longer analyzed
 * are left alone. Returns how many criteria changed.
 */
export async function applyBenchmark(
  db: Db,
  manager: Reviewer,
  sessionId: string,
  publicUrl: string,
  now = new Date(),
) {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM calibration_sessions WHERE id = ${sessionId}::uuid AND account_id = ${manager.accountId}::uuid FOR UPDATE`;
    const session = await tx.calibrationSession.findFirst({
      where: { id: sessionId, accountId: manager.accountId },
      include: { graders: { where: { benchmark: true }, include: { user: { select: { name: true } } } } },
    });
    if (!session) throw notFound('Calibration session');
    if (session.status !== 'closed')
      throw new DomainError('not_ready', 'Close the calibration before applying its benchmark.');
    const benchmark = session.graders[0];
    if (!benchmark) throw new DomainError('invalid_input', 'This calibration has no benchmark grader.');
    if (session.appliedAt) throw new DomainError('calibration_closed', "The benchmark's answers were already applied.");
    const answers = await tx.calibrationAnswer.findMany({
      where: { sessionId, userId: benchmark.userId },
      orderBy: [{ callId: 'asc' }, { criterionKey: 'asc' }],
    });
    const note = `Calibration "${session.name}": the benchmark's answer (${benchmark.user.name}).`;
    let changed = 0;
    for (const a of answers) {
      const call = await tx.call.findFirst({
        where: { id: a.callId, accountId: manager.accountId },
        select: { status: true, criteria: true },
      });
      if (call?.status !== 'analyzed') continue;
      const current = parseColumn(Criteria, call.criteria)?.find((c) => c.key === a.criterionKey);
      if (!current || current.result === a.result) continue;
      await overrideInTx(
        tx,
        manager,
        { callId: a.callId, key: a.criterionKey, result: a.result as CriterionOutcome, note },
        publicUrl,
        now,
      );
      changed++;
    }
    await tx.calibrationSession.update({ where: { id: sessionId }, data: { appliedAt: now } });
    await recordAudit(tx, {
      accountId: manager.accountId,
      actorUserId: manager.id,
      action: 'calibration.applied',
      targetType: 'calibration',
      targetId: sessionId,
      detail: { changed },
    });
    return changed;
  });
}
