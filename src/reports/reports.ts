import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { isUuid } from '../accounts/api-keys.ts';
import { DomainError } from '../domain/errors.ts';

/*
 * Reports (issue 10.5): the dashboard's aggregates, read from the daily rollups that triggers on
 * `calls` keep exact (migration 20261125300000_report_rollups: report_days, report_criteria_days,
 * report_topic_days). Days are calendar days in the account's time zone; weeks (ISO, from Monday)
 * and months are made of those days, so every bucket is the account's own. Only scored calls
 * (status `analyzed` with a score) count; calls flagged `language_mismatch` are left out unless the
 * filter asks for them. The customer's sentiment (issue 14) rides in report_days too (migration
 * 20261126600000_report_sentiment). A year of a 1,000,000-call account is a few tens of thousands of rollup
 * rows, never the calls.
 */

/** Campaign and template "none" in the rollup keys (a primary key cannot hold NULL). */
export const NONE_ID = '00000000-0000-0000-0000-000000000000';
/** Longest range a report covers (the previous period of the per-agent table doubles it). */
export const MAX_REPORT_DAYS = 1100;

const DAY = z.iso.date({ message: 'must be a date written YYYY-MM-DD' });
// Foreign or malformed ids match nothing (as in the calls filter): an error would say which ids exist.
const ids = z
  .array(z.string().max(100))
  .max(200)
  .nullish()
  .transform((list) => (list ? list.filter(isUuid) : null));

/** The filter every view takes, validated before any query runs (GraphQL and CSV alike). */
export const ReportFilterSchema = z
  .object({
    from: DAY,
    to: DAY,
    agentIds: ids,
    campaignIds: ids,
    templateIds: ids,
    languages: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, 'must be a language code such as en or es'),
      )
      .max(50)
      .nullish()
      .transform((v) => v ?? null),
    includeLanguageMismatch: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
  })
  .refine((f) => f.from <= f.to, { path: ['to'], message: 'must not be before `from`' })
  .refine((f) => daysBetween(f.from, f.to) < MAX_REPORT_DAYS, {
    path: ['to'],
    message: `a report covers at most ${MAX_REPORT_DAYS} days`,
  });
export type ReportFilter = z.output<typeof ReportFilterSchema> & {
  /**
   * Not a user's filter: leaves these calls out of every figure — those the reader grades blind in an
   * open calibration (src/calibration/read.ts `blindReportFilter` sets it only for users who hold such a seat).
   */
  excludeCallIds?: readonly string[] | null;
};

export const REPORT_INTERVALS = ['day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

export function parseReportFilter(value: unknown): ReportFilter {
  const result = ReportFilterSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  throw new DomainError(
    'invalid_input',
    issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '),
    {
      issues,
    },
  );
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The period of the same length just before the filter's: what "change" compares with. */
export function previousPeriod(f: Pick<ReportFilter, 'from' | 'to'>): { from: string; to: string } {
  const length = daysBetween(f.from, f.to) + 1;
  return { from: addDays(f.from, -length), to: addDays(f.from, -1) };
}

/**
 * The rows covering [from, to]: its whole calendar months from month rows, the days before and
 * after them from day rows (or day rows only, for day and week buckets). A year is then 12 month
 * rows per key instead of 365 day rows.
 */
export function rangeRows(from: string, to: string, months: boolean): Prisma.Sql {
  const days = (a: string, b: string) => Prisma.sql`(r.grain = 'day' AND r.day BETWEEN ${a}::date AND ${b}::date)`;
  if (!months) return days(from, to);
  const firstFull = from.endsWith('-01') ? from : firstOfNextMonth(from);
  const afterLast = firstOfNextMonth(to);
  const lastFull = afterLast === addDays(to, 1) ? firstOfMonth(to) : addMonths(firstOfMonth(to), -1);
  if (firstFull > lastFull) return days(from, to);
  const parts = [Prisma.sql`(r.grain = 'month' AND r.day BETWEEN ${firstFull}::date AND ${lastFull}::date)`];
  if (from < firstFull) parts.push(days(from, addDays(firstFull, -1)));
  const tail = addMonths(lastFull, 1);
  if (tail <= to) parts.push(days(tail, to));
  return Prisma.sql`(${Prisma.join(parts, ' OR ')})`;
}
const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
function addMonths(first: string, n: number): string {
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}
const firstOfNextMonth = (day: string) => addMonths(firstOfMonth(day), 1);

type Rollup = 'report_days' | 'report_criteria_days' | 'report_topic_days';
const KEY_COLUMNS = 'account_id, grain, day, agent_id, campaign_id, template_id, language, language_mismatch';
const ROLLUP_COLUMNS: Record<Rollup, string> = {
  report_days: `${KEY_COLUMNS}, calls, score_sum, coverage_sum, coverage_calls, critical_fails,
    band_0, band_1, band_2, band_3, band_4, band_5, band_6, band_7, band_8, band_9,
    customer_sentiment_sum, customer_sentiment_calls, customer_trend_calls, customer_improved, customer_worsened`,
  report_criteria_days: `${KEY_COLUMNS}, criterion, passed, failed, na, critical_fails`,
  report_topic_days: `${KEY_COLUMNS}, topic, calls`,
};

/**
 * What a report reads: the rollup itself, or — for a reader who grades some calls blind — the rollup
 * plus those calls' own rows with their signs reversed (`<rollup>_left_out`, migration
 * 20261127070000_report_blind_rows: the very SELECTs the rollup triggers run), so every figure is
 * exactly the figure without them. The planner pushes the filter into both halves: the rollup's
 * indexes still serve it.
 */
function rollup(table: Rollup, f: ReportFilter): Prisma.Sql {
  if (!f.excludeCallIds?.length) return Prisma.raw(table);
  const columns = Prisma.raw(ROLLUP_COLUMNS[table]);
  return Prisma.sql`(SELECT ${columns} FROM ${Prisma.raw(table)}
     UNION ALL SELECT ${columns} FROM ${Prisma.raw(`${table}_left_out`)}(${[...f.excludeCallIds]}::uuid[]))`;
}

/** The WHERE of every rollup read: the ranges (see rangeRows) and the filter's keys. */
function where(accountId: string, f: ReportFilter, ranges: Prisma.Sql): Prisma.Sql {
  const parts = [Prisma.sql`r.account_id = ${accountId}::uuid`, ranges];
  if (f.agentIds) parts.push(Prisma.sql`r.agent_id = ANY(${f.agentIds}::uuid[])`);
  if (f.campaignIds) parts.push(Prisma.sql`r.campaign_id = ANY(${f.campaignIds}::uuid[])`);
  if (f.templateIds) parts.push(Prisma.sql`r.template_id = ANY(${f.templateIds}::uuid[])`);
  if (f.languages) parts.push(Prisma.sql`r.language = ANY(${f.languages}::text[])`);
  if (!f.includeLanguageMismatch) parts.push(Prisma.sql`NOT r.language_mismatch`);
  return Prisma.join(parts, ' AND ');
}

/** One row per day, week or month with calls (its start and count) and the given sums over the rollups. */
function periodRows<T>(
  db: Db,
  accountId: string,
  f: ReportFilter,
  interval: ReportInterval,
  sums: Prisma.Sql,
): Promise<({ period: Date; calls: number } & T)[]> {
  return db.$queryRaw<({ period: Date; calls: number } & T)[]>`
    SELECT ${bucket(interval)} AS period, sum(r.calls)::int AS calls, ${sums}
      FROM ${rollup('report_days', f)} r
     WHERE ${where(accountId, f, rangeRows(f.from, f.to, interval === 'month'))}
     GROUP BY 1
    HAVING sum(r.calls) > 0
     ORDER BY 1`;
}

// `day::timestamp`: date_trunc on a bare date would pick the timestamptz variant and let the
// session's time zone shift the bucket. Month rows already start their month.
const bucket = (interval: ReportInterval) => Prisma.sql`date_trunc(${interval}, r.day::timestamp)::date`;

const round1 = (v: unknown) => (v == null ? null : Math.round(Number(v) * 10) / 10);
const ratio = (v: unknown) => (v == null ? null : Math.round(Number(v) * 1000) / 1000);
/** Sentiment scores are written with three decimals (src/analysis/sentiment.ts); averages too. */
const round3 = ratio;
const dayText = (d: Date) => d.toISOString().slice(0, 10);

export interface TrendPoint {
  /** First day of the bucket (YYYY-MM-DD, account time zone). */
  period: string;
  calls: number;
  averageScore: number | null;
  /** 0–1. */
  averageCoverage: number | null;
  /** The calls averageCoverage is computed over: those with a coverage. */
  coverageCalls: number;
  criticalFails: number;
}

export async function reportTrend(
  db: Db,
  accountId: string,
  f: ReportFilter,
  interval: ReportInterval,
): Promise<TrendPoint[]> {
  const rows = await periodRows<{ score: unknown; coverage: unknown; coverage_calls: number; critical_fails: number }>(
    db,
    accountId,
    f,
    interval,
    Prisma.sql`sum(r.score_sum) / nullif(sum(r.calls), 0) AS score,
           sum(r.coverage_sum) / nullif(sum(r.coverage_calls), 0) AS coverage,
           sum(r.coverage_calls)::int AS coverage_calls, sum(r.critical_fails)::int AS critical_fails`,
  );
  return rows.map((r) => ({
    period: dayText(r.period),
    calls: r.calls,
    averageScore: round1(r.score),
    averageCoverage: ratio(r.coverage),
    coverageCalls: r.coverage_calls,
    criticalFails: r.critical_fails,
  }));
}

export interface BreakdownRow {
  /** Agent or campaign id; null for calls without a campaign. */
  id: string | null;
  name: string | null;
  calls: number;
  averageScore: number | null;
  averageCoverage: number | null;
  /** The calls averageCoverage is computed over: those with a coverage. */
  coverageCalls: number;
  criticalFails: number;
  previousCalls: number;
  previousAverageScore: number | null;
  /** averageScore − previousAverageScore, in points; null when either is unknown. */
  change: number | null;
  /** Mean of the customer's overall sentiment (−1..1) over the calls that have one. */
  averageCustomerSentiment: number | null;
  /** The calls averageCustomerSentiment is computed over: those with a customer sentiment. */
  customerSentimentCalls: number;
  /** Of the calls with a customer trend, the share (0–1) where the customer ended better / worse. */
  customerImprovedShare: number | null;
  customerWorsenedShare: number | null;
}

const BREAKDOWNS = {
  agent: { key: Prisma.sql`r.agent_id`, name: Prisma.sql`(SELECT a.name FROM agents a WHERE a.id = g.id)` },
  campaign: { key: Prisma.sql`r.campaign_id`, name: Prisma.sql`(SELECT c.name FROM campaigns c WHERE c.id = g.id)` },
} as const;

/** Per agent or per campaign, with the previous period of the same length beside it. */
export async function reportBreakdown(
  db: Db,
  accountId: string,
  f: ReportFilter,
  by: keyof typeof BREAKDOWNS,
): Promise<BreakdownRow[]> {
  const prev = previousPeriod(f);
  const { key, name } = BREAKDOWNS[by];
  const rows = await db.$queryRaw<
    {
      id: string;
      name: string | null;
      calls: number;
      score: unknown;
      coverage: unknown;
      coverage_calls: number;
      critical_fails: number;
      prev_calls: number;
      prev_score: unknown;
      sentiment: unknown;
      sentiment_calls: number;
      improved: unknown;
      worsened: unknown;
    }[]
  >`
    SELECT g.id::text AS id, ${name} AS name, g.calls, g.score, g.coverage, g.coverage_calls, g.critical_fails,
           g.prev_calls, g.prev_score, g.sentiment, g.sentiment_calls, g.improved, g.worsened
      FROM (SELECT ${key} AS id,
                   coalesce(sum(r.calls) FILTER (WHERE r.day >= ${f.from}::date), 0)::int AS calls,
                   sum(r.score_sum) FILTER (WHERE r.day >= ${f.from}::date)
                     / nullif(sum(r.calls) FILTER (WHERE r.day >= ${f.from}::date), 0) AS score,
                   sum(r.coverage_sum) FILTER (WHERE r.day >= ${f.from}::date)
                     / nullif(sum(r.coverage_calls) FILTER (WHERE r.day >= ${f.from}::date), 0) AS coverage,
                   coalesce(sum(r.coverage_calls) FILTER (WHERE r.day >= ${f.from}::date), 0)::int AS coverage_calls,
                   coalesce(sum(r.critical_fails) FILTER (WHERE r.day >= ${f.from}::date), 0)::int AS critical_fails,
                   coalesce(sum(r.calls) FILTER (WHERE r.day < ${f.from}::date), 0)::int AS prev_calls,
                   sum(r.score_sum) FILTER (WHERE r.day < ${f.from}::date)
                     / nullif(sum(r.calls) FILTER (WHERE r.day < ${f.from}::date), 0) AS prev_score,
                   sum(r.customer_sentiment_sum) FILTER (WHERE r.day >= ${f.from}::date)
                     / nullif(sum(r.customer_sentiment_calls) FILTER (WHERE r.day >= ${f.from}::date), 0) AS sentiment,
                   coalesce(sum(r.customer_sentiment_calls) FILTER (WHERE r.day >= ${f.from}::date), 0)::int
                     AS sentiment_calls,
                   sum(r.customer_improved) FILTER (WHERE r.day >= ${f.from}::date)
                     / nullif(sum(r.customer_trend_calls) FILTER (WHERE r.day >= ${f.from}::date), 0)::numeric AS improved,
                   sum(r.customer_worsened) FILTER (WHERE r.day >= ${f.from}::date)
                     / nullif(sum(r.customer_trend_calls) FILTER (WHERE r.day >= ${f.from}::date), 0)::numeric AS worsened
              FROM ${rollup('report_days', f)} r
             WHERE ${where(accountId, f, Prisma.sql`(${rangeRows(prev.from, prev.to, true)} OR ${rangeRows(f.from, f.to, true)})`)}
             GROUP BY 1) g
     WHERE g.calls > 0
     ORDER BY g.calls DESC, name, id`;
  return rows.map((r) => {
    const averageScore = round1(r.score);
    const previousAverageScore = round1(r.prev_score);
    return {
      id: r.id === NONE_ID ? null : r.id,
      name: r.name,
      calls: r.calls,
      averageScore,
      averageCoverage: ratio(r.coverage),
      coverageCalls: r.coverage_calls,
      criticalFails: r.critical_fails,
      previousCalls: r.prev_calls,
      previousAverageScore,
      change:
        averageScore == null || previousAverageScore == null
          ? null
          : Math.round((averageScore - previousAverageScore) * 10) / 10,
      averageCustomerSentiment: round3(r.sentiment),
      customerSentimentCalls: r.sentiment_calls,
      customerImprovedShare: ratio(r.improved),
      customerWorsenedShare: ratio(r.worsened),
    };
  });
}

export interface SentimentPoint {
  /** First day of the bucket (YYYY-MM-DD, account time zone). */
  period: string;
  /** Scored calls in the bucket. */
  calls: number;
  /** Of those, calls with a customer sentiment (none on a mono call whose voices were not separated). */
  sentimentCalls: number;
  /** Mean of the customer's overall sentiment, −1..1, three decimals. */
  averageCustomerSentiment: number | null;
  /** Calls with a customer trend (at least two customer turns). */
  trendCalls: number;
  /** Of those, calls where the customer ended at least 0.1 better / worse than they started. */
  improved: number;
  worsened: number;
  /** improved / trendCalls and worsened / trendCalls, 0–1. */
  improvedShare: number | null;
  worsenedShare: number | null;
}

/**
 * How customers felt per day, week or month (issue 14): the mean of their overall sentiment and how
 * many ended better or worse than they started, from the same rollups as the score trend.
 */
export async function reportSentiment(
  db: Db,
  accountId: string,
  f: ReportFilter,
  interval: ReportInterval,
): Promise<SentimentPoint[]> {
  const rows = await periodRows<{
    sentiment_calls: number;
    sentiment_sum: unknown;
    trend_calls: number;
    improved: number;
    worsened: number;
  }>(
    db,
    accountId,
    f,
    interval,
    Prisma.sql`sum(r.customer_sentiment_calls)::int AS sentiment_calls, sum(r.customer_sentiment_sum) AS sentiment_sum,
           sum(r.customer_trend_calls)::int AS trend_calls,
           sum(r.customer_improved)::int AS improved, sum(r.customer_worsened)::int AS worsened`,
  );
  return rows.map((r) => ({
    period: dayText(r.period),
    calls: r.calls,
    sentimentCalls: r.sentiment_calls,
    averageCustomerSentiment: r.sentiment_calls > 0 ? round3(Number(r.sentiment_sum) / r.sentiment_calls) : null,
    trendCalls: r.trend_calls,
    improved: r.improved,
    worsened: r.worsened,
    improvedShare: r.trend_calls > 0 ? ratio(r.improved / r.trend_calls) : null,
    worsenedShare: r.trend_calls > 0 ? ratio(r.worsened / r.trend_calls) : null,
  }));
}

export interface CriterionRow {
  key: string;
  /** The label in the account's most recently edited template that has this key. */
  label: string | null;
  passed: number;
  failed: number;
  na: number;
  /** passed / (passed + failed); null when never evaluated. */
  passRate: number | null;
  criticalFails: number;
}

/** Per criterion key, the most failed first. */
export async function reportCriteria(db: Db, accountId: string, f: ReportFilter): Promise<CriterionRow[]> {
  const rows = await db.$queryRaw<
    { key: string; label: string | null; passed: number; failed: number; na: number; critical_fails: number }[]
  >`
    WITH g AS (
      SELECT r.criterion AS key, sum(r.passed)::int AS passed, sum(r.failed)::int AS failed, sum(r.na)::int AS na,
             sum(r.critical_fails)::int AS critical_fails
        FROM ${rollup('report_criteria_days', f)} r
       WHERE ${where(accountId, f, rangeRows(f.from, f.to, true))}
       GROUP BY 1
      HAVING sum(r.passed) + sum(r.failed) + sum(r.na) > 0),
    labels AS (
      SELECT DISTINCT ON (e->>'key') e->>'key' AS key, e->>'label' AS label
        FROM templates t
       CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(t.definition->'criteria') WHEN 'array'
                                               THEN t.definition->'criteria' ELSE '[]' END) e
       WHERE t.account_id = ${accountId}::uuid
       ORDER BY e->>'key', t.deleted_at IS NULL DESC, t.updated_at DESC)
    SELECT g.*, labels.label FROM g LEFT JOIN labels USING (key)
     ORDER BY g.failed DESC, g.key`;
  return rows.map((r) => ({
    key: r.key,
    label: r.label,
    passed: r.passed,
    failed: r.failed,
    na: r.na,
    passRate: r.passed + r.failed > 0 ? ratio(r.passed / (r.passed + r.failed)) : null,
    criticalFails: r.critical_fails,
  }));
}

export interface ScoreBand {
  /** Inclusive lower bound. */
  from: number;
  /** Exclusive upper bound, except the last band, which includes 100. */
  to: number;
  calls: number;
}

export async function reportScoreDistribution(db: Db, accountId: string, f: ReportFilter): Promise<ScoreBand[]> {
  const [row] = await db.$queryRaw<{ bands: number[] }[]>`
    SELECT ARRAY[coalesce(sum(band_0), 0), coalesce(sum(band_1), 0), coalesce(sum(band_2), 0), coalesce(sum(band_3), 0),
                 coalesce(sum(band_4), 0), coalesce(sum(band_5), 0), coalesce(sum(band_6), 0), coalesce(sum(band_7), 0),
                 coalesce(sum(band_8), 0), coalesce(sum(band_9), 0)]::int[] AS bands
      FROM ${rollup('report_days', f)} r
     WHERE ${where(accountId, f, rangeRows(f.from, f.to, true))}`;
  return (row?.bands ?? Array(10).fill(0)).map((calls, i) => ({ from: i * 10, to: i * 10 + 10, calls }));
}

export interface TopicPoint {
  period: string;
  topic: string;
  calls: number;
}

export async function reportTopics(
  db: Db,
  accountId: string,
  f: ReportFilter,
  interval: ReportInterval,
): Promise<TopicPoint[]> {
  const rows = await db.$queryRaw<{ period: Date; topic: string; calls: number }[]>`
    SELECT ${bucket(interval)} AS period, r.topic, sum(r.calls)::int AS calls
      FROM ${rollup('report_topic_days', f)} r
     WHERE ${where(accountId, f, rangeRows(f.from, f.to, interval === 'month'))}
     GROUP BY 1, 2
    HAVING sum(r.calls) > 0
     ORDER BY 1, 3 DESC, 2`;
  return rows.map((r) => ({ period: dayText(r.period), topic: r.topic, calls: r.calls }));
}

export interface DisputePoint {
  /** First day of the bucket (YYYY-MM-DD, account time zone). */
  period: string;
  /** Disputes opened in the bucket. */
  opened: number;
  /** Of those, how many are still open now. */
  stillOpen: number;
  /** Disputes accepted in the bucket (whenever they were opened). */
  accepted: number;
  /** Disputes rejected in the bucket. */
  rejected: number;
  /** Median hours from opening to answer of the disputes answered in the bucket (one decimal). */
  medianHoursToResolve: number | null;
}

/**
 * Disputes opened and resolved per day, week or month (issue 10.5). Read straight from `disputes`
 * joined to their calls — disputes are a small share of calls, and the (account_id, opened_at) and
 * (account_id, resolved_at) indexes keep the read to the range's rows. An opening counts on the
 * day it was opened and an answer on the day it was given, both in the account's time zone; the
 * call filters (agent, campaign, template, language, language mismatch) are the calls' own, as in
 * the rollups.
 */
export async function reportDisputes(
  db: Db,
  accountId: string,
  f: ReportFilter,
  interval: ReportInterval,
): Promise<DisputePoint[]> {
  const calls = [Prisma.sql`c.account_id = ${accountId}::uuid`];
  if (f.agentIds) calls.push(Prisma.sql`c.agent_id = ANY(${f.agentIds}::uuid[])`);
  if (f.campaignIds) calls.push(Prisma.sql`coalesce(c.campaign_id, ${NONE_ID}::uuid) = ANY(${f.campaignIds}::uuid[])`);
  if (f.templateIds) calls.push(Prisma.sql`coalesce(c.template_id, ${NONE_ID}::uuid) = ANY(${f.templateIds}::uuid[])`);
  if (f.languages) calls.push(Prisma.sql`coalesce(c.language, c.detected_language, '') = ANY(${f.languages}::text[])`);
  if (!f.includeLanguageMismatch) calls.push(Prisma.sql`NOT c.language_mismatch`);
  if (f.excludeCallIds?.length) calls.push(Prisma.sql`c.id <> ALL(${[...f.excludeCallIds]}::uuid[])`);
  // The range as instants: midnight of `from` to midnight after `to`, in the account's zone.
  const rows = await db.$queryRaw<
    {
      period: Date;
      opened: number;
      still_open: number;
      accepted: number;
      rejected: number;
      median_seconds: number | null;
    }[]
  >`
    WITH range AS (
      SELECT a.time_zone AS zone, (${f.from}::date::timestamp AT TIME ZONE a.time_zone) AS lo,
             ((${f.to}::date + 1)::timestamp AT TIME ZONE a.time_zone) AS hi
        FROM accounts a WHERE a.id = ${accountId}::uuid),
    moves AS (
      SELECT 'opened' AS kind, d.status, d.opened_at AS at, NULL::interval AS took, d.call_id
        FROM disputes d, range
       WHERE d.account_id = ${accountId}::uuid AND d.opened_at >= range.lo AND d.opened_at < range.hi
       UNION ALL
      SELECT 'resolved', d.status, d.resolved_at, d.resolved_at - d.opened_at, d.call_id
        FROM disputes d, range
       WHERE d.account_id = ${accountId}::uuid AND d.resolved_at >= range.lo AND d.resolved_at < range.hi
         AND d.status <> 'open')
    SELECT date_trunc(${interval}, (m.at AT TIME ZONE range.zone)::date::timestamp)::date AS period,
           (count(*) FILTER (WHERE m.kind = 'opened'))::int AS opened,
           (count(*) FILTER (WHERE m.kind = 'opened' AND m.status = 'open'))::int AS still_open,
           (count(*) FILTER (WHERE m.kind = 'resolved' AND m.status = 'accepted'))::int AS accepted,
           (count(*) FILTER (WHERE m.kind = 'resolved' AND m.status = 'rejected'))::int AS rejected,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM m.took))
             FILTER (WHERE m.kind = 'resolved') AS median_seconds
      FROM moves m
     CROSS JOIN range
     -- One lookup by primary key per dispute (LIMIT keeps the planner from hashing the account's
     -- calls: it cannot know how few disputes the range holds).
     CROSS JOIN LATERAL (SELECT 1 FROM calls c WHERE c.id = m.call_id AND ${Prisma.join(calls, ' AND ')} LIMIT 1) _
     GROUP BY 1
     ORDER BY 1`;
  return rows.map((r) => ({
    period: dayText(r.period),
    opened: r.opened,
    stillOpen: r.still_open,
    accepted: r.accepted,
    rejected: r.rejected,
    // To the nearest 3.6 s, not the tenth of an hour: a one-minute answer must not read as "0 h".
    medianHoursToResolve: r.median_seconds == null ? null : Math.round(Number(r.median_seconds) / 3.6) / 1000,
  }));
}
