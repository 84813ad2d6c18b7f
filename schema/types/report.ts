import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.ts';
import {
  type BreakdownRow,
  type CriterionRow,
  type DisputePoint,
  parseReportFilter,
  type ReportFilter as ReportFilterShape,
  type ReportInterval,
  reportBreakdown,
  reportCriteria,
  reportDisputes,
  reportScoreDistribution,
  reportSentiment,
  reportTopics,
  reportTrend,
  type ScoreBand,
  type SentimentPoint,
  type TopicPoint,
  type TrendPoint,
} from '../../src/reports/reports.ts';
import { blindFilter } from '../../src/calibration/read.ts';
import type { GraphQLContext } from '../context.ts';
import type { Db } from '../../src/db/client.ts';
import { accountIdOf, directErrors, sessionOf } from './common.ts';

/*
 * The dashboard's aggregate queries (issue 10.5), every one scoped to the signed-in account and
 * read from the daily rollups (src/reports/reports.ts), except disputes, read from their own table.
 * Viewers and above. Each takes the same `ReportFilter`; a filter that does not validate answers a
 * ValidationError listing its issues.
 */

const ReportIntervalEnum = builder.enumType('ReportInterval', {
  description: "Buckets of the account's time zone: calendar days, ISO weeks (from Monday), calendar months.",
  values: { DAY: { value: 'day' }, WEEK: { value: 'week' }, MONTH: { value: 'month' } } as const,
});

const ReportFilter = builder.inputType('ReportFilter', {
  description:
    "What every report view reads. Days are calendar days in the account's time zone. Ids of another account (or malformed) match nothing.",
  fields: (t) => ({
    from: t.string({ required: true, description: 'First day, YYYY-MM-DD (inclusive).' }),
    to: t.string({
      required: true,
      description: 'Last day, YYYY-MM-DD (inclusive); not before `from`, at most 1,100 days after it.',
    }),
    agentIds: t.idList({ description: 'Only these agents (at most 200 ids).' }),
    campaignIds: t.idList({
      description: `Only these campaigns (at most 200 ids); "00000000-0000-0000-0000-000000000000" means no campaign.`,
    }),
    templateIds: t.idList({ description: 'Only calls scored with these templates (at most 200 ids).' }),
    languages: t.stringList({ description: 'Language codes (asked for, else detected), such as `en`, `es`.' }),
    includeLanguageMismatch: t.boolean({
      description:
        'Also count calls flagged `languageMismatch` (scored with a template in another language). Left out by default.',
    }),
  }),
});

/** The validated filter, less the calls the reader grades blind in an open calibration (src/calibration/read.ts). */
const filterOf = (ctx: GraphQLContext, f: typeof ReportFilter.$inferInput): Promise<ReportFilterShape> =>
  blindFilter(
    ctx.app.db,
    sessionOf(ctx).user.id,
    parseReportFilter({
      ...f,
      agentIds: f.agentIds?.map(String),
      campaignIds: f.campaignIds?.map(String),
      templateIds: f.templateIds?.map(String),
    }),
  );

const TrendPointRef = builder.objectRef<TrendPoint>('ReportTrendPoint').implement({
  fields: (t) => ({
    period: t.exposeString('period', { description: 'First day of the bucket, YYYY-MM-DD.' }),
    calls: t.exposeInt('calls', { description: 'Scored calls.' }),
    averageScore: t.exposeFloat('averageScore', { nullable: true, description: '0–100, one decimal.' }),
    averageCoverage: t.exposeFloat('averageCoverage', {
      nullable: true,
      description: 'Average coverage (0–1) of the calls that have one.',
    }),
    coverageCalls: t.exposeInt('coverageCalls', { description: 'The calls `averageCoverage` is computed over.' }),
    criticalFails: t.exposeInt('criticalFails', { description: 'Calls where a critical criterion failed.' }),
  }),
});

const BreakdownRowRef = builder.objectRef<BreakdownRow>('ReportBreakdownRow').implement({
  description: 'One agent or campaign over the period, and the previous period of the same length.',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: true, description: 'Null: calls without a campaign.' }),
    name: t.exposeString('name', { nullable: true }),
    calls: t.exposeInt('calls'),
    averageScore: t.exposeFloat('averageScore', { nullable: true }),
    averageCoverage: t.exposeFloat('averageCoverage', { nullable: true }),
    coverageCalls: t.exposeInt('coverageCalls', {
      description: 'The calls `averageCoverage` is computed over (those with a coverage).',
    }),
    criticalFails: t.exposeInt('criticalFails'),
    previousCalls: t.exposeInt('previousCalls'),
    previousAverageScore: t.exposeFloat('previousAverageScore', { nullable: true }),
    change: t.exposeFloat('change', {
      nullable: true,
      description: 'averageScore − previousAverageScore in points; null without calls in either period.',
    }),
    averageCustomerSentiment: t.exposeFloat('averageCustomerSentiment', {
      nullable: true,
      description:
        "Mean of the customer's overall sentiment (−1…1, three decimals) over the period's calls that have one; null when none has (mono calls without separated voices).",
    }),
    customerSentimentCalls: t.exposeInt('customerSentimentCalls', {
      description: 'The calls `averageCustomerSentiment` is computed over.',
    }),
    customerImprovedShare: t.exposeFloat('customerImprovedShare', {
      nullable: true,
      description:
        'Of the calls with a customer trend, the share (0–1) where the customer ended at least 0.1 better than they started.',
    }),
    customerWorsenedShare: t.exposeFloat('customerWorsenedShare', {
      nullable: true,
      description: 'Of the calls with a customer trend, the share (0–1) where the customer ended at least 0.1 worse.',
    }),
  }),
});

const SentimentPointRef = builder.objectRef<SentimentPoint>('ReportSentimentPoint').implement({
  description: "The customers' sentiment in one bucket (days, weeks or months of the account).",
  fields: (t) => ({
    period: t.exposeString('period', { description: 'First day of the bucket, YYYY-MM-DD.' }),
    calls: t.exposeInt('calls', { description: 'Scored calls.' }),
    sentimentCalls: t.exposeInt('sentimentCalls', {
      description: "Of those, calls with a customer sentiment (none on mono calls whose voices weren't separated).",
    }),
    averageCustomerSentiment: t.exposeFloat('averageCustomerSentiment', {
      nullable: true,
      description: "Mean of the customer's overall sentiment over `sentimentCalls`, −1…1, three decimals.",
    }),
    trendCalls: t.exposeInt('trendCalls', {
      description: 'Calls with a customer trend (the customer spoke at least twice).',
    }),
    improved: t.exposeInt('improved', {
      description:
        'Of `trendCalls`, calls where the customer ended at least 0.1 better than they started (the call page\'s "Improved").',
    }),
    worsened: t.exposeInt('worsened', {
      description: 'Of `trendCalls`, calls where the customer ended at least 0.1 worse (the call page\'s "Got worse").',
    }),
    improvedShare: t.exposeFloat('improvedShare', { nullable: true, description: 'improved / trendCalls, 0–1.' }),
    worsenedShare: t.exposeFloat('worsenedShare', { nullable: true, description: 'worsened / trendCalls, 0–1.' }),
  }),
});

const CriterionRowRef = builder.objectRef<CriterionRow>('ReportCriterionRow').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    label: t.exposeString('label', {
      nullable: true,
      description: 'From the most recently edited template with this key.',
    }),
    passed: t.exposeInt('passed'),
    failed: t.exposeInt('failed'),
    na: t.exposeInt('na', { description: 'Could not be evaluated.' }),
    passRate: t.exposeFloat('passRate', { nullable: true, description: 'passed / (passed + failed), 0–1.' }),
    criticalFails: t.exposeInt('criticalFails', { description: 'Failures while the criterion was critical.' }),
  }),
});

const ScoreBandRef = builder.objectRef<ScoreBand>('ReportScoreBand').implement({
  fields: (t) => ({
    from: t.exposeInt('from', { description: 'Inclusive.' }),
    to: t.exposeInt('to', { description: 'Exclusive, except 100 (in the last band).' }),
    calls: t.exposeInt('calls'),
  }),
});

const TopicPointRef = builder.objectRef<TopicPoint>('ReportTopicPoint').implement({
  fields: (t) => ({
    period: t.exposeString('period', { description: 'First day of the bucket, YYYY-MM-DD.' }),
    topic: t.exposeString('topic'),
    calls: t.exposeInt('calls'),
  }),
});

const DisputePointRef = builder.objectRef<DisputePoint>('ReportDisputePoint').implement({
  description: 'Disputes opened and answered in one bucket (days, weeks or months of the account).',
  fields: (t) => ({
    period: t.exposeString('period', { description: 'First day of the bucket, YYYY-MM-DD.' }),
    opened: t.exposeInt('opened', { description: 'Disputes opened in the bucket.' }),
    stillOpen: t.exposeInt('stillOpen', { description: 'Of the disputes opened in the bucket, those still open.' }),
    accepted: t.exposeInt('accepted', { description: 'Disputes accepted in the bucket (whenever opened).' }),
    rejected: t.exposeInt('rejected', { description: 'Disputes rejected in the bucket (whenever opened).' }),
    medianHoursToResolve: t.exposeFloat('medianHoursToResolve', {
      nullable: true,
      description: 'Median hours from opening to answer of the disputes answered in the bucket, one decimal.',
    }),
  }),
});

// One object per view, so that each query can answer a typed error in its result union.
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer S> ? S : never;
function rowsType<T>(name: string, description: string, item: ObjectRef<Types, T>) {
  return builder.objectRef<{ rows: T[] }>(name).implement({
    description,
    fields: (t) => ({ rows: t.field({ type: [item], resolve: (o) => o.rows }) }),
  });
}

const ReportTrend = rowsType<TrendPoint>('ReportTrend', 'Score and coverage over time, oldest first.', TrendPointRef);
const ReportBreakdown = rowsType<BreakdownRow>(
  'ReportBreakdown',
  'Rows with scored calls in the period, the most calls first.',
  BreakdownRowRef,
);
const ReportCriteria = rowsType<CriterionRow>('ReportCriteria', 'Criteria, the most failed first.', CriterionRowRef);
const ReportScoreDistribution = rowsType<ScoreBand>(
  'ReportScoreDistribution',
  'Scored calls in ten bands of 10 points.',
  ScoreBandRef,
);
const ReportTopics = rowsType<TopicPoint>(
  'ReportTopics',
  'Scored calls per topic and bucket, oldest first, the biggest topic first within a bucket.',
  TopicPointRef,
);
const ReportSentiment = rowsType<SentimentPoint>(
  'ReportSentiment',
  "The customers' sentiment per bucket, oldest first; buckets without scored calls are left out.",
  SentimentPointRef,
);
const ReportDisputes = rowsType<DisputePoint>(
  'ReportDisputes',
  'Disputes opened and resolved per bucket, oldest first; buckets with neither are left out.',
  DisputePointRef,
);

type Read<T> = (db: Db, accountId: string, filter: ReportFilterShape, interval: ReportInterval) => Promise<T[]>;

/**
 * A report query: members and above, the shared `filter` and, for a series (`buckets`), the bucket
 * size; the rows come from src/reports (a table's reader has no use for the interval).
 */
function reportQuery<T>(
  name: string,
  type: ObjectRef<Types, { rows: T[] }>,
  buckets: boolean,
  description: string,
  read: Read<T>,
) {
  builder.queryField(name, (t) => {
    const filter = t.arg({ type: ReportFilter, required: true });
    const interval = t.arg({ type: ReportIntervalEnum, required: true });
    return t.field({
      type,
      authScopes: { member: true },
      errors: directErrors,
      description,
      args: { filter, ...(buckets ? { interval } : {}) },
      resolve: async (_r, args, ctx) => ({
        rows: await read(
          ctx.app.db,
          accountIdOf(ctx),
          await filterOf(ctx, args.filter),
          args.interval as ReportInterval,
        ),
      }),
    });
  });
}

reportQuery(
  'reportTrend',
  ReportTrend,
  true,
  'Average score, coverage and critical fails per day, week or month. Errors: `invalid_input`.',
  reportTrend,
);
reportQuery(
  'reportAgents',
  ReportBreakdown,
  false,
  "Per agent: calls, average, coverage, critical fails, the change against the previous period of the same length, and the customers' sentiment. Errors: `invalid_input`.",
  (db, accountId, filter) => reportBreakdown(db, accountId, filter, 'agent'),
);
reportQuery(
  'reportCampaigns',
  ReportBreakdown,
  false,
  'Per campaign (id null: no campaign), as `reportAgents`. Errors: `invalid_input`.',
  (db, accountId, filter) => reportBreakdown(db, accountId, filter, 'campaign'),
);
reportQuery(
  'reportCriteria',
  ReportCriteria,
  false,
  'Per criterion key: passed, failed, N/A and pass rate, the most failed first. Errors: `invalid_input`.',
  reportCriteria,
);
reportQuery(
  'reportScoreDistribution',
  ReportScoreDistribution,
  false,
  'How many scored calls fall in each band of 10 points. Errors: `invalid_input`.',
  reportScoreDistribution,
);
reportQuery(
  'reportTopics',
  ReportTopics,
  true,
  'Scored calls per topic per day, week or month. Errors: `invalid_input`.',
  reportTopics,
);
reportQuery(
  'reportSentiment',
  ReportSentiment,
  true,
  "The customer's average sentiment and how many customers ended better or worse than they started, per day, week or month. Errors: `invalid_input`.",
  reportSentiment,
);
reportQuery(
  'reportDisputes',
  ReportDisputes,
  true,
  'Agent disputes opened, accepted and rejected per day, week or month, with the median time to an answer. The filter applies to the disputed calls. Errors: `invalid_input`.',
  reportDisputes,
);
