import type { Db } from '../db/client.ts';
import { DomainError } from '../domain/errors.ts';
import {
  parseReportFilter,
  REPORT_INTERVALS,
  type ReportFilter,
  type ReportInterval,
  reportBreakdown,
  reportCriteria,
  reportDisputes,
  reportScoreDistribution,
  reportSentiment,
  reportTopics,
  reportTrend,
} from './reports.ts';
import { assertCleanText } from '../domain/text.ts';
import type { CsvRow } from '../export/calls-csv.ts';
import { safeText } from '../export/csv-safe.ts';

/*
 * The dashboard's tables as CSV (GET /api/reports/<table>.csv): the same queries as the GraphQL
 * report fields, so a download always equals what the page shows. Names of agents, campaigns,
 * criteria and topics came from users: every text cell goes through the formula guard.
 */

export const REPORT_TABLES = [
  'trend',
  'agents',
  'campaigns',
  'criteria',
  'distribution',
  'topics',
  'sentiment',
  'disputes',
] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

export const isReportTable = (name: string): name is ReportTable => (REPORT_TABLES as readonly string[]).includes(name);

const pct = (v: number | null) => (v == null ? null : Math.round(v * 1000) / 10);

/**
 * Reads the filter from a query string with the names of the GraphQL `ReportFilter` input (from,
 * to, agentIds, campaignIds, templateIds, languages, includeLanguageMismatch) plus `interval`
 * (day, week, month) for the trend, topics, sentiment and disputes. Lists may repeat the parameter or be comma-separated.
 */
export function reportParamsFromQuery(q: URLSearchParams): { filter: ReportFilter; interval: ReportInterval } {
  for (const [name, value] of q) assertCleanText(value, name);
  const list = (name: string) => {
    const values = q
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
    return values.length ? values : null;
  };
  const interval = (q.get('interval') ?? 'day').toLowerCase();
  if (!(REPORT_INTERVALS as readonly string[]).includes(interval))
    throw new DomainError('bad_request', '`interval` must be day, week or month.');
  const mismatch = q.get('includeLanguageMismatch');
  return {
    filter: parseReportFilter({
      from: q.get('from') ?? '',
      to: q.get('to') ?? '',
      agentIds: list('agentIds'),
      campaignIds: list('campaignIds'),
      templateIds: list('templateIds'),
      languages: list('languages'),
      includeLanguageMismatch: mismatch === 'true' || mismatch === '1',
    }),
    interval: interval as ReportInterval,
  };
}

/** Header and rows of one table (a few hundred rows at most: rollups, not calls). */
export async function reportCsv(
  db: Db,
  accountId: string,
  table: ReportTable,
  filter: ReportFilter,
  interval: ReportInterval,
): Promise<{ columns: string[]; rows: CsvRow[] }> {
  switch (table) {
    case 'trend':
      return {
        columns: ['period', 'calls', 'average_score', 'average_coverage_percent', 'critical_fails'],
        rows: (await reportTrend(db, accountId, filter, interval)).map((r) => [
          r.period,
          r.calls,
          r.averageScore,
          pct(r.averageCoverage),
          r.criticalFails,
        ]),
      };
    case 'agents':
    case 'campaigns': {
      const rows = await reportBreakdown(db, accountId, filter, table === 'agents' ? 'agent' : 'campaign');
      return {
        columns: [
          table === 'agents' ? 'agent' : 'campaign',
          'calls',
          'average_score',
          'average_coverage_percent',
          'critical_fails',
          'previous_calls',
          'previous_average_score',
          'change',
          'average_customer_sentiment',
          'customer_improved_percent',
          'customer_worsened_percent',
        ],
        rows: rows.map((r) => [
          safeText(r.name ?? (r.id == null ? '(no campaign)' : r.id)),
          r.calls,
          r.averageScore,
          pct(r.averageCoverage),
          r.criticalFails,
          r.previousCalls,
          r.previousAverageScore,
          r.change,
          r.averageCustomerSentiment,
          pct(r.customerImprovedShare),
          pct(r.customerWorsenedShare),
        ]),
      };
    }
    case 'criteria':
      return {
        columns: ['criterion', 'label', 'passed', 'failed', 'na', 'pass_rate_percent', 'critical_fails'],
        rows: (await reportCriteria(db, accountId, filter)).map((r) => [
          safeText(r.key),
          safeText(r.label),
          r.passed,
          r.failed,
          r.na,
          pct(r.passRate),
          r.criticalFails,
        ]),
      };
    case 'distribution':
      return {
        columns: ['score_from', 'score_to', 'calls'],
        rows: (await reportScoreDistribution(db, accountId, filter)).map((r) => [r.from, r.to, r.calls]),
      };
    case 'topics':
      return {
        columns: ['period', 'topic', 'calls'],
        rows: (await reportTopics(db, accountId, filter, interval)).map((r) => [r.period, safeText(r.topic), r.calls]),
      };
    case 'sentiment':
      return {
        columns: [
          'period',
          'calls',
          'sentiment_calls',
          'average_customer_sentiment',
          'trend_calls',
          'customer_improved',
          'customer_worsened',
          'customer_improved_percent',
          'customer_worsened_percent',
        ],
        rows: (await reportSentiment(db, accountId, filter, interval)).map((r) => [
          r.period,
          r.calls,
          r.sentimentCalls,
          r.averageCustomerSentiment,
          r.trendCalls,
          r.improved,
          r.worsened,
          pct(r.improvedShare),
          pct(r.worsenedShare),
        ]),
      };
    case 'disputes':
      return {
        columns: ['period', 'opened', 'still_open', 'accepted', 'rejected', 'median_hours_to_resolve'],
        rows: (await reportDisputes(db, accountId, filter, interval)).map((r) => [
          r.period,
          r.opened,
          r.stillOpen,
          r.accepted,
          r.rejected,
          r.medianHoursToResolve,
        ]),
      };
  }
}

/** `escucha-<table>-<from>-<to>.csv`. */
export const reportFileName = (table: ReportTable, f: ReportFilter) => `escucha-${table}-${f.from}-${f.to}.csv`;
