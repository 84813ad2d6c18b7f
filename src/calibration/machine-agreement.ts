import { recordAudit } from '../accounts/audit.ts';
import { parseTemplate } from '../analysis/template.ts';
import { callFilterWhere } from '../calls/calls-filter.ts';
import type { Db } from '../db/client.ts';
import { DomainError } from '../domain/errors.ts';
import { Prisma } from '../generated/prisma/client.ts';

/**
 * How often people agree with the machine, per criterion (issue 31.2). Every verdict a person gave
 * on a criterion of a call — an override, a resolved dispute, a closed calibration's reference
 * answer — is a measurement of the automatic grader: the SQL function `human_checks` (migration
 * 20261127023000) gives one row per call and criterion, and the calls list's `checkedCriterion`
 * filter reads the same function, so the report's counts and the calls behind them agree.
 * The period is the calls' start, as in the calls list.
 *
 * - stood: the person's verdict equals the machine's;
 * - false fail: the machine failed it, the person passed it; false pass: the other way round;
 * - other change: to or from "not applicable".
 * A criterion whose agreement (stood / checked) is below the account's threshold is flagged.
 */

export interface AgreementFilter {
  startedFrom?: Date | null;
  startedTo?: Date | null;
  /** Not a user's filter: the calls the reader grades blind (src/calibration/read.ts `blindFilter`). */
  excludeCallIds?: readonly string[] | null;
}

export interface AgreementRow {
  criterionKey: string;
  label: string;
  checked: number;
  stood: number;
  falseFail: number;
  falsePass: number;
  otherChange: number;
  /** stood / checked, 0–1. */
  agreement: number;
  flagged: boolean;
}

export interface AgreementReport {
  threshold: number;
  /** Most changed first (ties: lower agreement, then key). */
  rows: AgreementRow[];
}

export async function machineAgreement(db: Db, accountId: string, filter: AgreementFilter): Promise<AgreementReport> {
  const where = callFilterWhere(accountId, {
    startedFrom: filter.startedFrom,
    startedTo: filter.startedTo,
    excludeCallIds: filter.excludeCallIds,
  });
  const [account, rows, templates] = await Promise.all([
    db.account.findUniqueOrThrow({ where: { id: accountId }, select: { machineAgreementThreshold: true } }),
    db.$queryRaw<{ key: string; checked: number; stood: number; false_fail: number; false_pass: number }[]>`
      SELECT h.criterion_key AS key, count(*)::int AS checked,
             count(*) FILTER (WHERE h.machine = h.human)::int AS stood,
             count(*) FILTER (WHERE h.machine = 'failed' AND h.human = 'passed')::int AS false_fail,
             count(*) FILTER (WHERE h.machine = 'passed' AND h.human = 'failed')::int AS false_pass
        FROM human_checks(${accountId}::uuid) h JOIN calls c ON c.id = h.call_id
       WHERE ${Prisma.join(where, ' AND ')}
       GROUP BY h.criterion_key`,
    db.template.findMany({
      where: { accountId },
      select: { definition: true },
      orderBy: [{ deletedAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'asc' }],
    }),
  ]);
  const labels = new Map<string, string>();
  for (const t of templates) {
    const parsed = parseTemplate(t.definition);
    if (parsed.ok) for (const c of parsed.template.criteria) if (!labels.has(c.key)) labels.set(c.key, c.label);
  }
  const threshold = account.machineAgreementThreshold;
  const out = rows.map((r): AgreementRow => {
    const agreement = r.stood / r.checked;
    return {
      criterionKey: r.key,
      label: labels.get(r.key) ?? r.key,
      checked: r.checked,
      stood: r.stood,
      falseFail: r.false_fail,
      falsePass: r.false_pass,
      otherChange: r.checked - r.stood - r.false_fail - r.false_pass,
      agreement,
      flagged: agreement * 100 < threshold,
    };
  });
  out.sort(
    (a, b) =>
      b.checked - b.stood - (a.checked - a.stood) ||
      a.agreement - b.agreement ||
      a.criterionKey.localeCompare(b.criterionKey),
  );
  return { threshold, rows: out };
}

export async function setAgreementThreshold(db: Db, actor: { id: string; accountId: string }, percent: number) {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new DomainError('invalid_input', 'The threshold is a whole percentage from 0 to 100.');
  await db.$transaction(async (tx) => {
    const before = await tx.account.findUniqueOrThrow({
      where: { id: actor.accountId },
      select: { machineAgreementThreshold: true },
    });
    await tx.account.update({ where: { id: actor.accountId }, data: { machineAgreementThreshold: percent } });
    await recordAudit(tx, {
      accountId: actor.accountId,
      actorUserId: actor.id,
      action: 'machine_agreement.threshold_changed',
      targetType: 'account',
      targetId: actor.accountId,
      detail: { from: before.machineAgreementThreshold, to: percent },
    });
  });
  return percent;
}
