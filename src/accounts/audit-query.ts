import type { Db } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { AUDIT_ACTIONS, type AuditAction } from './audit.ts';
import { DomainError } from '../domain/errors.ts';

/** The audit log's filters: the app's page, the GraphQL query and the CSV export share them. */
export interface AuditFilter {
  actions?: AuditAction[] | null;
  /** Inclusive. */
  from?: Date | null;
  /** Exclusive. */
  to?: Date | null;
  /**
   * Not a user's filter: entries about these calls are left out — the calls the reader grades
   * blind in an open calibration, whose overrides would show their verdicts (src/calibration/read.ts).
   */
  excludeCallIds?: readonly string[] | null;
  /** With them, the disputes on those calls: a rejected dispute says the verdict stood. */
  excludeDisputeIds?: readonly string[] | null;
}

export function parseAuditActions(values: readonly string[] | null | undefined): AuditAction[] | null {
  if (!values?.length) return null;
  for (const v of values)
    if (!(AUDIT_ACTIONS as readonly string[]).includes(v))
      throw new DomainError('invalid_input', `Unknown audit action "${v}" (one of ${AUDIT_ACTIONS.join(', ')}).`, {
        field: 'action',
      });
  return values as AuditAction[];
}

export function auditWhere(accountId: string, f: AuditFilter): Prisma.AuditLogWhereInput {
  return {
    accountId,
    ...(f.actions && { action: { in: f.actions } }),
    ...((f.from || f.to) && { createdAt: { ...(f.from && { gte: f.from }), ...(f.to && { lt: f.to }) } }),
    ...(f.excludeCallIds?.length && {
      // The call's own entries (overrides: from → to), coaching items made from it (their criteria) and
      // its disputes' (dispute.rejected: the verdict stood).
      NOT: [
        { targetType: 'call', targetId: { in: [...f.excludeCallIds] } },
        ...f.excludeCallIds.map((id) => ({ targetType: 'coaching_item', detail: { path: ['callId'], equals: id } })),
        ...(f.excludeDisputeIds?.length ? [{ targetType: 'dispute', targetId: { in: [...f.excludeDisputeIds] } }] : []),
      ],
    }),
  };
}

/** Newest first, ties by id: one index range (account_id, created_at, id) read backwards. */
export const AUDIT_ORDER = [
  { createdAt: 'desc' },
  { id: 'desc' },
] as const satisfies Prisma.AuditLogOrderByWithRelationInput[];

const BATCH = 500;

/** Every entry matching the filter, newest first, read in keyset batches (for the CSV export). */
export async function* auditEntries(db: Db, accountId: string, f: AuditFilter) {
  let cursor: { createdAt: Date; id: bigint } | null = null;
  for (;;) {
    const rows: {
      id: bigint;
      createdAt: Date;
      action: string;
      targetType: string;
      targetId: string | null;
      detail: Prisma.JsonValue;
      actorUserId: string | null;
      actor: { email: string; name: string } | null;
    }[] = await db.auditLog.findMany({
      where: {
        AND: [
          auditWhere(accountId, f),
          ...(cursor
            ? [
                {
                  OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
                },
              ]
            : []),
        ],
      },
      orderBy: [...AUDIT_ORDER],
      take: BATCH,
      include: { actor: { select: { email: true, name: true } } },
    });
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}
