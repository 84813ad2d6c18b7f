import type { Db } from '../db/client.ts';
import { callFilterWhere } from '../calls/calls-filter.ts';
import type { CallFilter } from '../calls/calls-query.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { safeText } from './csv-safe.ts';

export const CSV_COLUMNS = [
  'id',
  'external_id',
  'started_at',
  'agent',
  'agent_code',
  'campaign',
  'direction',
  'customer_phone',
  'customer_name',
  'language',
  'duration_seconds',
  'status',
  'score',
  'topic',
  'summary',
  'criteria',
  'url',
  'coverage',
  'needs_review',
  'language_mismatch',
  'customer_sentiment',
  'customer_sentiment_trend',
  'agent_sentiment',
] as const;

export type CsvRow = (string | number | null)[];

/** Large enough that round trips don't dominate, small enough that a batch is a few hundred KB. */
export const EXPORT_BATCH = 500;

interface ExportRecord {
  id: string;
  external_id: string | null;
  started_at: Date;
  agent: string;
  agent_code: string | null;
  campaign: string | null;
  direction: string | null;
  customer_phone: string | null;
  customer_name: string | null;
  language: string | null;
  duration_seconds: number | null;
  status: string;
  score: number | null;
  topic: string | null;
  summary: string | null;
  criteria: string | null;
  coverage: number | null;
  needs_review: boolean;
  language_mismatch: boolean;
  customer_sentiment: number | null;
  customer_sentiment_trend: number | null;
  agent_sentiment: number | null;
}

/**
 * Every call the filter matches, newest first, as CSV rows — one batch in memory at a time.
 * Keyset pagination on (started_at, id), not OFFSET, so each batch is an index range scan and
 * the thousandth batch costs what the first does; rows inserted mid-export cannot shift pages.
 */
export async function* exportCallRows(
  db: Db,
  accountId: string,
  filter: CallFilter,
  opts: { publicUrl: string; batchSize?: number },
): AsyncGenerator<CsvRow> {
  const limit = opts.batchSize ?? EXPORT_BATCH;
  let after: { startedAt: Date; id: string } | null = null;
  for (;;) {
    const where = callFilterWhere(accountId, filter);
    if (after) where.push(Prisma.sql`(c.started_at, c.id) < (${after.startedAt}::timestamptz, ${after.id}::uuid)`);
    // Criteria are flattened in SQL so their evidence quotes (the bulk of the JSON) never leave
    // the database.
    const rows: ExportRecord[] = await db.$queryRaw<ExportRecord[]>`
      SELECT c.id, c.external_id, c.started_at, a.name AS agent, a.code AS agent_code, cp.name AS campaign,
             c.direction::text AS direction, c.customer_phone, c.customer_name,
             coalesce(c.language, c.detected_language) AS language, c.duration_seconds, c.status::text AS status,
             c.score, c.topic, c.summary, c.coverage, c.needs_review, c.language_mismatch,
             c.customer_sentiment, c.customer_sentiment_trend, (c.sentiment->'agent'->>'score')::float8 AS agent_sentiment,
             CASE WHEN jsonb_typeof(c.criteria) = 'array' THEN (
               SELECT string_agg(coalesce(e->>'label', e->>'key', '?') || ': ' || coalesce(e->>'result', '?'), '; ' ORDER BY i)
                 FROM jsonb_array_elements(c.criteria) WITH ORDINALITY AS x(e, i)) END AS criteria
        FROM calls c
        JOIN agents a ON a.id = c.agent_id
        LEFT JOIN campaigns cp ON cp.id = c.campaign_id
       WHERE ${Prisma.join(where, ' AND ')}
       ORDER BY c.started_at DESC, c.id DESC
       LIMIT ${limit}`;
    for (const r of rows) yield toCsvRow(r, opts.publicUrl);
    if (rows.length < limit) return;
    const last = rows[rows.length - 1]!;
    after = { startedAt: last.started_at, id: last.id };
  }
}

function toCsvRow(r: ExportRecord, publicUrl: string): CsvRow {
  return [
    r.id,
    safeText(r.external_id),
    r.started_at.toISOString(),
    safeText(r.agent),
    safeText(r.agent_code),
    safeText(r.campaign),
    r.direction,
    safeText(r.customer_phone),
    safeText(r.customer_name),
    safeText(r.language),
    r.duration_seconds == null ? null : Math.round(r.duration_seconds * 10) / 10,
    // docs/api/product-decisions.md: the analyzed view also lists transcribed calls, marked as not analyzed.
    r.status === 'transcribed' ? 'transcribed (not analyzed)' : r.status,
    r.score,
    safeText(r.topic),
    safeText(r.summary),
    safeText(r.criteria),
    `${publicUrl}/calls/${r.id}`,
    // Columns added later go last, so spreadsheets built on the earlier ones keep working.
    r.coverage == null ? null : Math.round(r.coverage * 1000) / 10,
    r.needs_review ? 'yes' : 'no',
    r.language_mismatch ? 'yes' : 'no',
    // −1…1 (trend −2…2), two decimals; empty until analyzed and, per speaker, on mono recordings.
    round2(r.customer_sentiment),
    round2(r.customer_sentiment_trend),
    round2(r.agent_sentiment),
  ];
}

function round2(value: number | null): number | null {
  return value == null ? null : Math.round(value * 100) / 100;
}

/** `escucha-calls-YYYY-MM-DD.csv`, dated in the account's time zone (the day the user sees). */
export function exportFileName(now: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    now,
  );
  return `escucha-calls-${day}.csv`;
}
