import { addJobSql } from '../jobs/catalog.ts';
import { type Db, queryDirect, type Tx } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { creationEventSql } from '../lifecycle/transition.ts';
import { DomainError } from '../domain/errors.ts';

export interface IntakeFacts {
  timeZone: string;
  planMinutes: number;
  /** The call already created with this external_id, if any, deleted (tombstone) or not. */
  existingId: string | null;
  /** When the call with that external_id was deleted (only a tombstone is left), else null. */
  existingDeletedAt: Date | null;
  campaign: { id: string; language: string | null } | null;
  /** The active agent with the sent (normalized) agent_code, the usual case, found in the same query. */
  agentByCode: { id: string; codeNormalized: string | null } | null;
}

/** The rate-limit counter's row after the facts statement counted the request (see `count`). */
export interface CountedRow {
  points: number;
  /** End of the window, epoch milliseconds (null: a window without end). */
  expire: number | null;
}

/**
 * Everything intake reads about the account before it can decide, in one round trip: its time
 * zone and plan, an existing call with the same external_id, the campaign named (by name, or by
 * the manual upload's picker) and the agent with the sent code. Null facts when the account does
 * not exist. With `count` (an upsert yielding `points, expire`, see src/intake/rate-limit.ts) the
 * same statement also counts the request against the account's rate limit, whether or not the
 * account exists, and `counted` is its row.
 */
export async function readIntakeFacts(
  db: Db,
  accountId: string,
  q: { externalId: string | null; campaignName: string | null; campaignId: string | null; agentCode: string | null },
  count?: Prisma.Sql,
): Promise<{ facts: IntakeFacts | null; counted: CountedRow | null }> {
  const facts = Prisma.sql`
    SELECT a.time_zone, a.plan_minutes,
           coalesce((SELECT c.id FROM calls c WHERE c.account_id = a.id AND c.external_id = ${q.externalId}),
                    (SELECT t.id FROM call_tombstones t WHERE t.account_id = a.id AND t.external_id = ${q.externalId}))
             AS existing_id,
           -- Set when that call was deleted: the resend says so (issue 26) instead of a dead link.
           (SELECT t.deleted_at FROM call_tombstones t WHERE t.account_id = a.id AND t.external_id = ${q.externalId})
             AS existing_deleted_at,
           (SELECT json_build_object('id', p.id, 'language', p.language) FROM campaigns p
             WHERE p.account_id = a.id AND p.archived_at IS NULL
               AND (p.name_normalized = ${q.campaignName} OR p.id = ${q.campaignId}::uuid)
             LIMIT 1) AS campaign,
           (SELECT json_build_object('id', g.id, 'codeNormalized', g.code_normalized) FROM agents g
             WHERE g.account_id = a.id AND g.code_normalized = ${q.agentCode} AND g.active
             LIMIT 1) AS agent
      FROM accounts a WHERE a.id = ${accountId}::uuid`;
  type Row = {
    time_zone: string;
    plan_minutes: number;
    existing_id: string | null;
    existing_deleted_at: Date | string | null;
    campaign: IntakeFacts['campaign'];
    agent: IntakeFacts['agentByCode'];
  };
  let row: Row | undefined;
  let counted: CountedRow | null = null;
  if (count) {
    // The counter row comes back whether or not the account exists: a right join on the count.
    const [r] = await queryDirect<Partial<Row> & { points: number; expire: string | null }>(
      db,
      Prisma.sql`
      WITH counted AS (${count}), facts AS (${facts})
      SELECT facts.*, counted.points, counted.expire FROM facts RIGHT JOIN counted ON true`,
      'intake-facts-counted',
    );
    if (r) counted = { points: r.points, expire: r.expire === null ? null : Number(r.expire) };
    // time_zone is never null in accounts: null here means no such account.
    row = r && r.time_zone != null ? (r as Row) : undefined;
  } else {
    [row] = await queryDirect<Row>(db, facts, 'intake-facts');
  }
  if (!row) return { facts: null, counted };
  return {
    facts: {
      timeZone: row.time_zone,
      planMinutes: row.plan_minutes,
      existingId: row.existing_id,
      existingDeletedAt: row.existing_deleted_at == null ? null : new Date(row.existing_deleted_at),
      campaign: row.campaign,
      agentByCode: row.agent,
    },
    counted,
  };
}

export interface NewCall {
  id: string;
  accountId: string;
  externalId: string | null;
  source: 'api' | 'upload';
  agentId: string;
  campaignId: string | null;
  startedAt: Date;
  customerPhone: string | null;
  customerName: string | null;
  direction: string | null;
  language: string | null;
  fileName: string;
  fileSize: number;
  fileSha256: string;
  contentType: string;
  storageKey: string;
  minutes: number;
  period: string;
}

/**
 * The call row, its minute reservation against the plan, its period's call and storage counts, its
 * ledger entry, its history row ('none' → 'queued') and its transcription job, in ONE statement:
 * one round trip, no interactive transaction (issue 12). Answers `exists` when a concurrent request
 * with the same external_id won, or its call was deleted (a tombstone; nothing is written then), and
 * throws `no_minutes` when the plan cannot cover the reservation: `intake_refuse()` raises, so the
 * statement's writes all roll back. `usage_reserve` admits within a stripe's grant of the plan, or
 * under the period row's lock against the committed total, so concurrent intakes never overspend.
 */
export async function insertQueuedCall(
  db: Db | Tx,
  c: NewCall,
  planMinutes: number,
  detail: string,
): Promise<{ status: 'queued' } | { status: 'exists' }> {
  let row: { id: string | null; jobs: number } | undefined;
  try {
    // Every parameter is cast: it goes to pg untyped (see queryDirect).
    [row] = await queryDirect<{ id: string | null; jobs: number }>(
      db,
      Prisma.sql`
    WITH call AS (
      INSERT INTO calls (id, account_id, external_id, source, agent_id, campaign_id, started_at, customer_phone,
                         customer_name, direction, language, file_name, file_size, file_sha256, content_type,
                         storage_key, reserved_minutes, period)
      SELECT ${c.id}::uuid, ${c.accountId}::uuid, ${c.externalId}::text, ${c.source}::"CallSource", ${c.agentId}::uuid,
             ${c.campaignId}::uuid, ${c.startedAt}::timestamptz, ${c.customerPhone}::text, ${c.customerName}::text,
             ${c.direction}::"CallDirection", ${c.language}::text, ${c.fileName}::text, ${c.fileSize}::bigint,
             ${c.fileSha256}::text, ${c.contentType}::text, ${c.storageKey}::text, ${c.minutes}::int, ${c.period}::text
       -- A call deleted since the facts were read left a tombstone: answer exists, never charge again.
       WHERE NOT EXISTS (SELECT 1 FROM call_tombstones t
                          WHERE t.account_id = ${c.accountId}::uuid AND t.external_id = ${c.externalId}::text)
      ON CONFLICT (account_id, external_id) DO NOTHING
      RETURNING id
    ), reservation AS (
      -- The reservation on one of the period's stripes (migration usage_stripes: exact, and only
      -- near the plan's end serialised on the period row); false when the plan cannot cover it.
      SELECT 1 FROM call WHERE usage_reserve(${c.accountId}::uuid, ${c.period}::text, ${c.minutes}::int, ${c.fileSize}::bigint)
    ), ledger AS (
      INSERT INTO minute_ledger (account_id, call_id, period, kind, minutes)
      SELECT ${c.accountId}::uuid, call.id, ${c.period}::text, 'reserve', ${c.minutes}::int FROM call, reservation
    ), history AS (
      ${creationEventSql(Prisma.sql`SELECT call.id FROM call, reservation`, detail)}
    ), job AS (
      -- add_job's own statements would otherwise be planned afresh on every call (a custom plan for
      -- its one-element array each time: a fifth of the insert's CPU); their generic plans are the
      -- same index lookups. Local to this statement's transaction, and to the triggers after it.
      SELECT ${addJobSql('transcribe', { callId: c.id })}
        FROM call, reservation, (SELECT set_config('plan_cache_mode', 'force_generic_plan', true)) AS generic_plans
    )
    SELECT (SELECT id FROM call) AS id, (SELECT count(*) FROM job)::int AS jobs,
           -- A call the plan cannot cover must not stay: fail the whole statement.
           CASE WHEN EXISTS (SELECT 1 FROM call) AND NOT EXISTS (SELECT 1 FROM reservation)
                THEN intake_refuse('no_minutes') END AS refused`,
      'intake-insert',
    );
  } catch (error) {
    if (!refusedFor(error, 'no_minutes')) throw error;
    const [u] = await db.$queryRaw<{ used: number; reserved: number }[]>`
      SELECT minutes_used AS used, minutes_reserved AS reserved FROM usage_totals
       WHERE account_id = ${c.accountId}::uuid AND period = ${c.period}`;
    const available = Math.max(0, planMinutes - (u?.used ?? 0) - (u?.reserved ?? 0));
    throw new DomainError(
      'no_minutes',
      `This recording reserves ${c.minutes} minute(s) (one per MB of file size) but only ${available} of the plan's ${planMinutes} minutes are available this period.`,
      { required: c.minutes, available },
    );
  }
  if (!row?.id) return { status: 'exists' };
  if (row.jobs !== 1) throw new Error(`intake queued ${row.jobs} transcription jobs for call ${row.id}`);
  return { status: 'queued' };
}

/** SQLSTATE of `intake_refuse()` (migration 20261126700000_intake_refuse_sqlstate): its own, not P0001. */
const INTAKE_REFUSED = 'EI001';

/** Whether `error` is the `intake_refuse(reason)` raise of the statement above. */
function refusedFor(error: unknown, reason: string): boolean {
  if (!(error instanceof Error)) return false;
  // On the pg pool the driver's error carries the code and the message (the reason) as they are.
  if ((error as Error & { code?: unknown }).code === INTAKE_REFUSED) return error.message === reason;
  // Through Prisma (a transaction's client) the driver error is wrapped (code P2010): its text still
  // carries the SQLSTATE and the reason.
  const text = `${error.message} ${JSON.stringify(error)}`;
  return text.includes(INTAKE_REFUSED) && text.includes(reason);
}
