import type { Tx } from '../db/client.ts';
import { DomainError } from '../domain/errors.ts';

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
 * Reserves minutes and counts the call and its storage in its period, in the caller's transaction.
 * The conditional UPDATE takes the period row's lock, so concurrent intakes are serialised there
 * and the availability check is re-evaluated against the committed total: no overspend.
 */
export async function reserveMinutes(
  tx: Tx,
  a: { accountId: string; callId: string; period: string; minutes: number; bytes: number; planMinutes: number },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO usage_periods (account_id, period) VALUES (${a.accountId}::uuid, ${a.period})
    ON CONFLICT DO NOTHING`;
  const updated = await tx.$executeRaw`
    UPDATE usage_periods
       SET minutes_reserved = minutes_reserved + ${a.minutes},
           calls = calls + 1,
           storage_bytes = storage_bytes + ${a.bytes}::bigint
     WHERE account_id = ${a.accountId}::uuid AND period = ${a.period}
       AND ${a.planMinutes} - minutes_used - minutes_reserved >= ${a.minutes}`;
  if (updated === 0) {
    const [row] = await tx.$queryRaw<{ used: number; reserved: number }[]>`
      SELECT minutes_used AS used, minutes_reserved AS reserved FROM usage_periods
       WHERE account_id = ${a.accountId}::uuid AND period = ${a.period}`;
    const available = Math.max(0, a.planMinutes - (row?.used ?? 0) - (row?.reserved ?? 0));
    throw new DomainError(
      'no_minutes',
      `This recording reserves ${a.minutes} minute(s) (one per MB of file size) but only ${available} of the plan's ${a.planMinutes} minutes are available this period.`,
      { required: a.minutes, available },
    );
  }
  await tx.$executeRaw`
    INSERT INTO minute_ledger (account_id, call_id, period, kind, minutes)
    VALUES (${a.accountId}::uuid, ${a.callId}::uuid, ${a.period}, 'reserve', ${a.minutes})`;
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
  await tx.$executeRaw`
    UPDATE usage_periods
       SET minutes_reserved = minutes_reserved - ${row.reserved ?? 0},
           minutes_used = minutes_used + ${used}
     WHERE account_id = ${row.account_id}::uuid AND period = ${row.period}`;
  await tx.$executeRaw`UPDATE calls SET used_minutes = ${used} WHERE id = ${callId}::uuid`;
  return true;
}

/** Adds `bytes` (negative to free) to the storage counted in a call's period. */
export async function adjustStorage(tx: Tx, accountId: string, period: string, bytes: number): Promise<void> {
  if (bytes === 0) return;
  await tx.$executeRaw`
    UPDATE usage_periods SET storage_bytes = GREATEST(0, storage_bytes + ${bytes}::bigint)
     WHERE account_id = ${accountId}::uuid AND period = ${period}`;
}
