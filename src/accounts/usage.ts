import type { Db, Tx } from '../db/client.ts';

const MB = 1_048_576;

/** One minute per started megabyte, at least one (docs/api/product-decisions.md: reservation at creation). */
export function minutesForBytes(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / MB));
}

/** Billable minutes of a transcribed call: started minutes of real duration. */
export function minutesForDuration(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/**
 * Replaces a call's reservation with its real minutes. Idempotent: the ledger's unique
 * (call, kind) makes a retried job a no-op, so a call is never charged twice.
 */
export async function settleMinutes(tx: Tx, callId: string, usedMinutes: number): Promise<boolean> {
  return applyOnce(tx, callId, 'settle', usedMinutes);
}

/** Gives back a failed call's reservation (no charge). Idempotent like settleMinutes. */
export async function releaseMinutes(tx: Tx, callId: string): Promise<boolean> {
  return applyOnce(tx, callId, 'release', 0);
}

async function applyOnce(tx: Tx, callId: string, kind: 'settle' | 'release', used: number): Promise<boolean> {
  const rows = await tx.$queryRaw<{ account_id: string; period: string; reserved: number }[]>`
    INSERT INTO minute_ledger (account_id, call_id, period, kind, minutes)
    SELECT c.account_id, c.id, c.period, ${kind}, ${used}
      FROM calls c
     WHERE c.id = ${callId}::uuid
       AND NOT EXISTS (SELECT 1 FROM minute_ledger l WHERE l.call_id = c.id AND l.kind IN ('settle', 'release'))
    ON CONFLICT (call_id, kind) DO NOTHING
    RETURNING account_id, period, (SELECT minutes FROM minute_ledger r WHERE r.call_id = ${callId}::uuid AND r.kind = 'reserve') AS reserved`;
  const row = rows[0];
  if (!row) return false;
  // On the period row, not on the stripe intake reserved on (migration usage_stripes): the sum is
  // what counts. Charged more than reserved, the plan may have less left than the stripes were
  // granted: usage_fold_if_short takes their grants back then, so none admits past the plan.
  await tx.$executeRaw`
    UPDATE usage_periods
       SET minutes_reserved = minutes_reserved - ${row.reserved ?? 0},
           minutes_used = minutes_used + ${used}
     WHERE account_id = ${row.account_id}::uuid AND period = ${row.period}`;
  if (used > (row.reserved ?? 0)) {
    await tx.$executeRaw`SELECT usage_fold_if_short(${row.account_id}::uuid, ${row.period})`;
  }
  await tx.$executeRaw`UPDATE calls SET used_minutes = ${used} WHERE id = ${callId}::uuid`;
  return true;
}

/**
 * Adds `bytes` (negative to free) to the storage counted in a call's period: on its period row, whose
 * own column may go below zero when intake counted the bytes on a stripe (usage_totals sums them).
 */
export async function adjustStorage(tx: Tx, accountId: string, period: string, bytes: number): Promise<void> {
  if (bytes === 0) return;
  await tx.$executeRaw`
    UPDATE usage_periods SET storage_bytes = storage_bytes + ${bytes}::bigint
     WHERE account_id = ${accountId}::uuid AND period = ${period}`;
}

/** A period's figures: its usage_periods row plus its stripes' counts (the view usage_totals). */
export interface UsageTotals {
  period: string;
  calls: number;
  minutesUsed: number;
  minutesReserved: number;
  storageBytes: bigint;
  storageFreedBytes: bigint;
}

/** The account's periods, newest first: `period` alone, or the latest `limit`. */
export async function usageTotals(
  db: Db,
  accountId: string,
  which: { period: string } | { limit: number },
): Promise<UsageTotals[]> {
  const rows = await db.$queryRaw<
    { period: string; calls: number; used: number; reserved: number; storage: bigint; freed: bigint }[]
  >`SELECT period, calls, minutes_used AS used, minutes_reserved AS reserved, storage_bytes AS storage,
           storage_freed_bytes AS freed
      FROM usage_totals
     WHERE account_id = ${accountId}::uuid AND (${'period' in which ? which.period : null}::text IS NULL OR period = ${'period' in which ? which.period : null}::text)
     ORDER BY period DESC LIMIT ${'limit' in which ? which.limit : 1}`;
  return rows.map((r) => ({
    period: r.period,
    calls: r.calls,
    minutesUsed: r.used,
    minutesReserved: r.reserved,
    storageBytes: r.storage,
    storageFreedBytes: r.freed,
  }));
}
