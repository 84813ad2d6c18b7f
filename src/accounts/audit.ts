import type { Prisma } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';

/**
 * Every action the audit log records. One list, so the log page, its CSV and its filter know every
 * value, and a new audited action is a line here before it is a call to `recordAudit`.
 */
export const AUDIT_ACTIONS = [
  'call.deleted',
  'calls.deleted',
  'retention.changed',
  'retention.applied',
  'api_key.created',
  'api_key.revoked',
  'user.role_changed',
  'user.removed',
  'user.renamed',
  'invitation.created',
  'invitation.revoked',
  'webhook.endpoint_created',
  'webhook.url_changed',
  'webhook.endpoint_removed',
  'webhook.secret_rotated',
  'webhook.secret_reissued',
  'criterion.overridden',
  'coaching.assigned',
  'coaching.completed',
  'dispute.rejected',
  'settings.changed',
  'redaction.changed',
  'vocabulary.changed',
  'review_sample.changed',
  'template.created',
  'template.updated',
  'template.deleted',
  'template.default_changed',
  'template.language_default_changed',
  'bulk_reanalysis.started',
  'bulk_reanalysis.cancelled',
  'calibration.created',
  'calibration.closed',
  'calibration.applied',
  'machine_agreement.threshold_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  accountId: string;
  /** The signed-in user; null for the system (retention job, CLI: `detail.by` says which). */
  actorUserId: string | null;
  action: AuditAction;
  targetType: string;
  targetId?: string | null;
  detail?: Prisma.InputJsonObject;
}

/** Who makes a change: a signed-in user, or the system (the CLI, the retention job). */
export type AuditBy = { userId: string } | { system: 'cli' | 'retention' };

/** The entry's actor and, for the system, `detail.by` naming which part of it. */
export function auditActor(by: AuditBy): { actorUserId: string | null; detail: Prisma.InputJsonObject } {
  return 'userId' in by ? { actorUserId: by.userId, detail: {} } : { actorUserId: null, detail: { by: by.system } };
}

/**
 * `recordAudit` for a change made `by` a user or the system: the actor's id, and for the system its
 * `detail.by`, are filled in (the entry's own detail follows).
 */
export async function recordAuditBy(
  tx: Tx,
  by: AuditBy,
  entry: Omit<AuditEntry, 'actorUserId'> & { detail: Prisma.InputJsonObject },
): Promise<void> {
  const actor = auditActor(by);
  await recordAudit(tx, { ...entry, actorUserId: actor.actorUserId, detail: { ...actor.detail, ...entry.detail } });
}

/**
 * Records who did what. Call it with the transaction that makes the change, so the entry exists
 * exactly when the change does (a rolled-back change leaves no entry, a committed one always has one).
 */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      accountId: entry.accountId,
      actorUserId: entry.actorUserId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      detail: entry.detail ?? {},
    },
  });
}

/** One entry for a change made by `by` (a user, or the system with `detail.by`). */
export async function recordBy(
  tx: Tx,
  by: AuditBy,
  entry: Omit<AuditEntry, 'actorUserId' | 'detail'> & { detail?: Prisma.InputJsonObject },
): Promise<void> {
  const actor = auditActor(by);
  await recordAudit(tx, { ...entry, actorUserId: actor.actorUserId, detail: { ...actor.detail, ...entry.detail } });
}

/**
 * One entry for an account's settings changed `by` someone, saying which changed and how
 * (changedFields); none when nothing did, the account was not there before, or no one is named.
 */
export async function recordSettingsChanged(
  tx: Tx,
  by: AuditBy | undefined,
  accountId: string,
  action: AuditAction,
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
): Promise<void> {
  const changes = before ? changedFields(before, after) : {};
  if (by && Object.keys(changes).length)
    await recordBy(tx, by, { accountId, action, targetType: 'account', targetId: accountId, detail: changes });
}

/**
 * The settings that changed, each as { from, to } (nothing when nothing did): an entry says what a
 * person changed, not every value the form sent again.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: Prisma.InputJsonValue | null; to: Prisma.InputJsonValue | null }> {
  const out: Record<string, { from: Prisma.InputJsonValue | null; to: Prisma.InputJsonValue | null }> = {};
  for (const [k, to] of Object.entries(after)) {
    if (to === undefined) continue;
    const from = before[k];
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    out[k] = { from: (from ?? null) as Prisma.InputJsonValue | null, to: (to ?? null) as Prisma.InputJsonValue | null };
  }
  return out;
}
