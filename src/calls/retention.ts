import type { Db } from '../db/client.ts';
import { recordAudit } from '../accounts/audit.ts';
import { type DataContext, removeStoredFiles } from './call-deletion.ts';
import { DomainError } from '../domain/errors.ts';
import { type Actor, roleAtLeast } from '../accounts/users.ts';

/** A century: longer is "keep", which is said by leaving the setting empty. */
export const MAX_RETENTION_DAYS = 36_500;
const BATCH = 500;
const DAY_MS = 86_400_000;

export interface RetentionSettings {
  /** Days a call's recording is kept after the call started; null keeps it. */
  recordingDays: number | null;
  /** Days its transcript (text, segments, evidence quotes, summary) is kept; null keeps it. */
  transcriptDays: number | null;
}

function check(days: number | null, field: string): number | null {
  if (days === null) return null;
  if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS) {
    const message = `Retention is a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or empty to keep.`;
    throw new DomainError('invalid_retention', message, { issues: [{ path: field, message }] });
  }
  return days;
}

/** Sets both retention periods (owners and admins); audited as `retention.changed` when one changes. */
export async function setRetention(db: Db, actor: Actor, input: RetentionSettings) {
  if (!roleAtLeast(actor.role, 'admin')) throw new DomainError('forbidden', 'Only owners and admins change retention.');
  const recordingDays = check(input.recordingDays, 'recordingDays');
  const transcriptDays = check(input.transcriptDays, 'transcriptDays');
  return db.$transaction(async (tx) => {
    // Locked so two concurrent changes audit the true "from" of each other.
    const [before] = await tx.$queryRaw<{ recording: number | null; transcript: number | null }[]>`
      SELECT retention_recording_days AS recording, retention_transcript_days AS transcript
        FROM accounts WHERE id = ${actor.accountId}::uuid FOR UPDATE`;
    const account = await tx.account.update({
      where: { id: actor.accountId },
      data: { retentionRecordingDays: recordingDays, retentionTranscriptDays: transcriptDays },
    });
    if (before && (before.recording !== recordingDays || before.transcript !== transcriptDays)) {
      await recordAudit(tx, {
        accountId: actor.accountId,
        actorUserId: actor.id,
        action: 'retention.changed',
        targetType: 'account',
        targetId: actor.accountId,
        detail: {
          recordingDays: { from: before.recording, to: recordingDays },
          transcriptDays: { from: before.transcript, to: transcriptDays },
        },
      });
    }
    return account;
  });
}

export interface RetentionRun {
  accounts: number;
  recordings: number;
  transcripts: number;
  bytesFreed: number;
}

/**
 * The daily retention job's work. For every account with a retention period, calls that started
 * longer ago than it lose their recording (the file, after the commit that marks
 * `recording_deleted_at`; a crash in between leaves a file no live call refers to, which the
 * hourly housekeeping removes) and their transcript (segments, search text, the evidence quotes
 * in criteria and the summary, all derived from what was said). Score, criteria results and the
 * call's metadata stay. Only finished calls are touched (in-progress ones wait for the next run);
 * batches of 500 per transaction, rows locked with SKIP LOCKED so a re-analysis is never waited
 * on. Each account with something removed gets one `retention.applied` audit entry.
 */
export async function applyRetention(app: DataContext, now = new Date()): Promise<RetentionRun> {
  const accounts = await app.db.account.findMany({
    where: { OR: [{ retentionRecordingDays: { not: null } }, { retentionTranscriptDays: { not: null } }] },
    select: { id: true, retentionRecordingDays: true, retentionTranscriptDays: true },
  });
  const run: RetentionRun = { accounts: 0, recordings: 0, transcripts: 0, bytesFreed: 0 };
  for (const account of accounts) {
    let recordings = 0;
    let transcripts = 0;
    let bytesFreed = 0;
    if (account.retentionRecordingDays != null) {
      const cutoff = new Date(now.getTime() - account.retentionRecordingDays * DAY_MS);
      for (;;) {
        const rows = await app.db.$queryRaw<{ storage_key: string; file_size: bigint }[]>`
          WITH due AS (
            SELECT c.id FROM calls c
             WHERE c.account_id = ${account.id}::uuid AND c.started_at < ${cutoff}
               AND c.recording_deleted_at IS NULL AND c.status IN ('analyzed', 'transcribed', 'failed')
             LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
          ), done AS (
            UPDATE calls c SET recording_deleted_at = ${now} FROM due WHERE c.id = due.id
            RETURNING c.storage_key, c.period, c.file_size
          ), freed AS (
            -- Unclamped, as in deleteCallRows: usage_totals sums the row and its stripes.
            UPDATE usage_periods u
               SET storage_bytes = u.storage_bytes - f.bytes,
                   storage_freed_bytes = u.storage_freed_bytes + f.bytes
              FROM (SELECT period, sum(file_size)::bigint AS bytes FROM done GROUP BY period) f
             WHERE u.account_id = ${account.id}::uuid AND u.period = f.period
          )
          SELECT storage_key, file_size FROM done`;
        await removeStoredFiles(
          app,
          rows.map((r) => r.storage_key),
        );
        recordings += rows.length;
        bytesFreed += rows.reduce((sum, r) => sum + Number(r.file_size), 0);
        if (rows.length < BATCH) break;
      }
    }
    if (account.retentionTranscriptDays != null) {
      const cutoff = new Date(now.getTime() - account.retentionTranscriptDays * DAY_MS);
      for (;;) {
        const n = await app.db.$executeRaw`
          WITH due AS (
            SELECT c.id FROM calls c
             WHERE c.account_id = ${account.id}::uuid AND c.started_at < ${cutoff}
               AND c.transcript_deleted_at IS NULL AND c.status IN ('analyzed', 'transcribed', 'failed')
             LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
          )
          UPDATE calls c
             SET transcript_deleted_at = ${now}, segments = NULL, search_text = NULL, summary = NULL,
                 criteria = CASE WHEN jsonb_typeof(c.criteria) = 'array' THEN
                   (SELECT coalesce(jsonb_agg(jsonb_set(e, '{evidence}', '[]'::jsonb) ORDER BY i), '[]'::jsonb)
                      FROM jsonb_array_elements(c.criteria) WITH ORDINALITY AS x(e, i))
                   ELSE c.criteria END
            FROM due WHERE c.id = due.id`;
        transcripts += n;
        if (n < BATCH) break;
      }
    }
    if (recordings || transcripts) {
      run.accounts++;
      await app.db.$transaction((tx) =>
        recordAudit(tx, {
          accountId: account.id,
          actorUserId: null,
          action: 'retention.applied',
          targetType: 'calls',
          detail: {
            by: 'retention',
            recordings,
            transcripts,
            bytesFreed,
            recordingDays: account.retentionRecordingDays,
            transcriptDays: account.retentionTranscriptDays,
          },
        }),
      );
    }
    run.recordings += recordings;
    run.transcripts += transcripts;
    run.bytesFreed += bytesFreed;
  }
  return run;
}
