import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { BarChart, LineChart } from '../components/charts.tsx';
import { DrillCount, DrillFigure, ReportCard as Report } from '../components/report-card.tsx';
import { signedScore } from '../components/sentiment.tsx';
import { Alert, Card, DataTable, EmptyState, PageHeader } from '../components/ui.tsx';
import { addDays, dayIn } from '../lib/account-days.ts';
import { bandNarrow, bucketDays, disputeHref, drillHref, previousDays } from '../lib/drill-down.ts';
import type { CallsQuery } from '../lib/call-filters.ts';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { describeError } from '../lib/errors.ts';
import { formatHours, formatNumber, formatPercent, formatScore, useFormat } from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { MachineAgreementFlag } from '../components/machine-agreement.tsx';

/*
 * The dashboard (issue 10.5): score and coverage over time, per agent, campaign and criterion,
 * score distribution, topics over time, the customers' sentiment (issue 14) and agents' disputes, each from one GraphQL report query
 * (read from daily rollups, see src/reports/reports.ts; disputes from their table) with the same filter, and each table downloadable as CSV
 * from /api/reports/<table>.csv with that filter. bench:reports sends these documents as they are.
 */

const DashboardOptions = graphql(`
  query DashboardOptions {
    account { id timeZone }
    agents(includeInactive: true) { id name }
    campaigns(includeArchived: true) { id name }
    templates { id name }
    callFilterOptions { languages }
  }
`);

const DashboardTrend = graphql(`
  query DashboardTrend($filter: ReportFilter!, $interval: ReportInterval!) {
    reportTrend(filter: $filter, interval: $interval) {
      __typename
      ... on ReportTrend { rows { period calls averageScore averageCoverage coverageCalls criticalFails } }
      ... on Error { code message }
    }
  }
`);

const DashboardAgents = graphql(`
  query DashboardAgents($filter: ReportFilter!) {
    reportAgents(filter: $filter) {
      __typename
      ... on ReportBreakdown {
        rows {
          id name calls averageScore averageCoverage coverageCalls criticalFails previousCalls previousAverageScore
          change averageCustomerSentiment customerSentimentCalls
        }
      }
      ... on Error { code message }
    }
  }
`);

const DashboardCampaigns = graphql(`
  query DashboardCampaigns($filter: ReportFilter!) {
    reportCampaigns(filter: $filter) {
      __typename
      ... on ReportBreakdown {
        rows {
          id name calls averageScore averageCoverage coverageCalls criticalFails previousCalls previousAverageScore
          change averageCustomerSentiment customerSentimentCalls
        }
      }
      ... on Error { code message }
    }
  }
`);

const DashboardCriteria = graphql(`
  query DashboardCriteria($filter: ReportFilter!) {
    reportCriteria(filter: $filter) {
      __typename
      ... on ReportCriteria { rows { key label passed failed na passRate criticalFails } }
      ... on Error { code message }
    }
  }
`);

const DashboardDistribution = graphql(`
  query DashboardDistribution($filter: ReportFilter!) {
    reportScoreDistribution(filter: $filter) {
      __typename
      ... on ReportScoreDistribution { rows { from to calls } }
      ... on Error { code message }
    }
  }
`);

const DashboardTopics = graphql(`
  query DashboardTopics($filter: ReportFilter!, $interval: ReportInterval!) {
    reportTopics(filter: $filter, interval: $interval) {
      __typename
      ... on ReportTopics { rows { period topic calls } }
      ... on Error { code message }
    }
  }
`);

const DashboardSentiment = graphql(`
  query DashboardSentiment($filter: ReportFilter!, $interval: ReportInterval!) {
    reportSentiment(filter: $filter, interval: $interval) {
      __typename
      ... on ReportSentiment { rows { period sentimentCalls averageCustomerSentiment trendCalls improved worsened improvedShare worsenedShare } }
      ... on Error { code message }
    }
  }
`);

const DashboardDisputes = graphql(`
  query DashboardDisputes($filter: ReportFilter!, $interval: ReportInterval!) {
    reportDisputes(filter: $filter, interval: $interval) {
      __typename
      ... on ReportDisputes { rows { period opened stillOpen accepted rejected medianHoursToResolve } }
      ... on Error { code message }
    }
  }
`);

type Interval = 'DAY' | 'WEEK' | 'MONTH';
interface Filters {
  from: string;
  to: string;
  interval: Interval;
  agent: string;
  campaign: string;
  template: string;
  language: string;
  mismatch: boolean;
}

/** "No campaign" in the report filter (the rollups' key for calls without one). */
const NO_CAMPAIGN = '00000000-0000-0000-0000-000000000000';
const TOPIC_COLORS = ['var(--accent)', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#0ea5e9', 'var(--silence)'];

function reportFilter(f: Filters) {
  return {
    from: f.from,
    to: f.to,
    agentIds: f.agent ? [f.agent] : null,
    campaignIds: f.campaign ? [f.campaign] : null,
    templateIds: f.template ? [f.template] : null,
    languages: f.language ? [f.language] : null,
    includeLanguageMismatch: f.mismatch,
  };
}

function csvUrl(table: string, f: Filters): string {
  const p = new URLSearchParams({ from: f.from, to: f.to, interval: f.interval.toLowerCase() });
  if (f.agent) p.set('agentIds', f.agent);
  if (f.campaign) p.set('campaignIds', f.campaign);
  if (f.template) p.set('templateIds', f.template);
  if (f.language) p.set('languages', f.language);
  if (f.mismatch) p.set('includeLanguageMismatch', 'true');
  return `/api/reports/${table}.csv?${p}`;
}

export function DashboardPage() {
  const i18n = useT();
  const { t, locale } = i18n;
  const fmt = useFormat();
  const [{ data: options }] = useQuery({ query: DashboardOptions });
  const zone = options?.account.timeZone ?? 'UTC';
  const [picked, setPicked] = useState<Partial<Filters>>({});
  const today = dayIn(new Date(), zone);
  const f: Filters = {
    from: addDays(today, -29),
    to: today,
    interval: 'DAY',
    agent: '',
    campaign: '',
    template: '',
    language: '',
    mismatch: false,
    ...picked,
  };
  const set = (patch: Partial<Filters>) => setPicked((p) => ({ ...p, ...patch }));
  // Stable variables while the filter is the same (urql refetches when the object changes).
  const filterKey = JSON.stringify(reportFilter(f));
  const variables = useMemo(() => ({ filter: JSON.parse(filterKey) as ReturnType<typeof reportFilter> }), [filterKey]);
  const pause = !options;
  const [trend] = useQuery({ query: DashboardTrend, variables: { ...variables, interval: f.interval }, pause });
  const [agents] = useQuery({ query: DashboardAgents, variables, pause });
  const [campaigns] = useQuery({ query: DashboardCampaigns, variables, pause });
  const [criteria] = useQuery({ query: DashboardCriteria, variables, pause });
  const [distribution] = useQuery({ query: DashboardDistribution, variables, pause });
  const [topics] = useQuery({ query: DashboardTopics, variables: { ...variables, interval: f.interval }, pause });
  const [sentiment] = useQuery({ query: DashboardSentiment, variables: { ...variables, interval: f.interval }, pause });
  const [disputes] = useQuery({ query: DashboardDisputes, variables: { ...variables, interval: f.interval }, pause });

  const trendRows = rowsOf(trend.data?.reportTrend);
  const agentRows = rowsOf(agents.data?.reportAgents);
  const campaignRows = rowsOf(campaigns.data?.reportCampaigns);
  const criterionRows = rowsOf(criteria.data?.reportCriteria);
  const bands = rowsOf(distribution.data?.reportScoreDistribution);
  const topicRows = rowsOf(topics.data?.reportTopics);
  const sentimentRows = rowsOf(sentiment.data?.reportSentiment);
  const disputeRows = rowsOf(disputes.data?.reportDisputes);
  // The first failure of any view: a transport error, else a typed error (all share the filter).
  const failure =
    [trend, agents, campaigns, criteria, distribution, topics, sentiment, disputes].find((r) => r.error)?.error ??
    [
      trend.data?.reportTrend,
      agents.data?.reportAgents,
      campaigns.data?.reportCampaigns,
      criteria.data?.reportCriteria,
      distribution.data?.reportScoreDistribution,
      topics.data?.reportTopics,
      sentiment.data?.reportSentiment,
      disputes.data?.reportDisputes,
    ]
      .map(errorOf)
      .find((e) => e != null);

  const n = (v: number | null | undefined) => formatNumber(v, locale);
  const score = (v: number | null | undefined) => formatScore(v, locale);
  const pct = (v: number | null | undefined) => formatPercent(v, locale);
  const signed = (v: number | null | undefined) =>
    v == null ? '—' : new Intl.NumberFormat(locale, { maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(v);
  // Sentiment as the call page writes it: two decimals and a true minus sign.
  const feeling = (v: number | null | undefined) => (v == null ? '—' : signedScore(v, locale));
  // Days in the browser's date order ("4 Nov" / "Nov 4"), like every other date of the app.
  const periodLabel = (day: string, style: 'short' | 'long' = 'short') =>
    fmt.day(day, f.interval !== 'MONTH' ? 'day' : style === 'long' ? 'longMonth' : 'month');

  const total = trendRows.reduce((s, r) => s + r.calls, 0);
  type TrendRow = (typeof trendRows)[number];
  // Each bucket's average weighs as many as the calls it is computed over.
  const weighted = (pick: (r: TrendRow) => number | null, weight: (r: TrendRow) => number = (r) => r.calls) => {
    const with_ = trendRows.filter((r) => pick(r) != null);
    const calls = with_.reduce((s, r) => s + weight(r), 0);
    return calls ? with_.reduce((s, r) => s + (pick(r) as number) * weight(r), 0) / calls : null;
  };
  const avgScore = weighted((r) => r.averageScore);
  // The calls the average score is computed over: the scored calls of the buckets with a score.
  const scoredCalls = trendRows.filter((r) => r.averageScore != null).reduce((s, r) => s + r.calls, 0);
  const avgCoverage = weighted(
    (r) => r.averageCoverage,
    (r) => r.coverageCalls,
  );
  const coverageCalls = trendRows.reduce((s, r) => s + r.coverageCalls, 0);
  const previous = previousDays(f);
  const criticalFails = trendRows.reduce((s, r) => s + r.criticalFails, 0);

  // Topics over time: the five biggest topics of the period, the rest as "other".
  const topicTotals = new Map<string, number>();
  for (const r of topicRows) topicTotals.set(r.topic, (topicTotals.get(r.topic) ?? 0) + r.calls);
  const top = [...topicTotals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k]) => k);
  const otherTotal = [...topicTotals].filter(([k]) => !top.includes(k)).reduce((s, [, v]) => s + v, 0);
  const periods = [...new Set(topicRows.map((r) => r.period))];
  const topicBars = periods.map((p) => {
    const rows = topicRows.filter((r) => r.period === p);
    const other = rows.filter((r) => !top.includes(r.topic)).reduce((s, r) => s + r.calls, 0);
    return {
      label: periodLabel(p),
      values: [
        ...top.map((topic, i) => ({
          name: topic,
          value: rows.find((r) => r.topic === topic)?.calls ?? 0,
          color: TOPIC_COLORS[i]!,
          href: drillHref(f, { ...bucketDays(p, f.interval, f), topic, exactTopic: true }),
        })),
        ...(other
          ? [
              {
                name: t('dashboard.otherTopics'),
                value: other,
                color: TOPIC_COLORS[6]!,
                // "Other": every topic label but the five named ones (the list's otherTopics filter).
                href: drillHref(f, { ...bucketDays(p, f.interval, f), otherTopics: top }),
              },
            ]
          : []),
      ],
    };
  });

  const card = { filters: f };
  const empty = !!trend.data && total === 0;
  // Each card has its own query, so numbers arrive one by one: the page says it is busy until the last
  // has answered (screen readers announce it; tests wait on it instead of on one figure).
  const busy =
    !options || [trend, agents, campaigns, criteria, distribution, topics, sentiment, disputes].some((q) => q.fetching);

  return (
    <div className="page">
      <PageHeader title={t('nav.dashboard')} description={t('dashboard.lead', { zone })} />
      <div className="stack" aria-busy={busy || undefined} data-testid="dashboard">
        <MachineAgreementFlag />
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is not yet in every browser the app supports. */}
        <div className="card" role="search" aria-label={t('dashboard.filters')}>
          <div className="filters">
            <Field id="d-from" label={t('dashboard.from')}>
              <input
                id="d-from"
                className="input"
                type="date"
                value={f.from}
                max={f.to}
                onChange={(e) => e.target.value && set({ from: e.target.value })}
              />
            </Field>
            <Field id="d-to" label={t('dashboard.to')}>
              <input
                id="d-to"
                className="input"
                type="date"
                value={f.to}
                min={f.from}
                onChange={(e) => e.target.value && set({ to: e.target.value })}
              />
            </Field>
            <Field id="d-interval" label={t('dashboard.interval')}>
              <select
                id="d-interval"
                className="select"
                value={f.interval}
                onChange={(e) => set({ interval: e.target.value as Interval })}
              >
                <option value="DAY">{t('dashboard.day')}</option>
                <option value="WEEK">{t('dashboard.week')}</option>
                <option value="MONTH">{t('dashboard.month')}</option>
              </select>
            </Field>
            <FilterSelect
              id="d-agent"
              label={t('dashboard.agent')}
              all={t('dashboard.allAgents')}
              value={f.agent}
              onChange={(agent) => set({ agent })}
              options={options?.agents}
            />
            <FilterSelect
              id="d-campaign"
              label={t('dashboard.campaign')}
              all={t('dashboard.allCampaigns')}
              value={f.campaign}
              onChange={(campaign) => set({ campaign })}
              options={[{ id: NO_CAMPAIGN, name: t('dashboard.noCampaign') }, ...(options?.campaigns ?? [])]}
            />
            <FilterSelect
              id="d-template"
              label={t('dashboard.template')}
              all={t('dashboard.allTemplates')}
              value={f.template}
              onChange={(template) => set({ template })}
              options={options?.templates}
            />
            <FilterSelect
              id="d-language"
              label={t('dashboard.language')}
              all={t('dashboard.allLanguages')}
              value={f.language}
              onChange={(language) => set({ language })}
              options={options?.callFilterOptions.languages.map((l) => ({ id: l, name: l }))}
            />
          </div>
          <div className="filter-bar-foot">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={f.mismatch}
                onChange={(e) => set({ mismatch: e.target.checked })}
                data-testid="include-mismatch"
              />
              {t('dashboard.includeMismatch')}
            </label>
          </div>
        </div>

        {failure && <Alert tone="red">{describeError(i18n, failure)}</Alert>}

        <div className="grid-4">
          <Stat label={t('dashboard.calls')} testId="dashboard-calls">
            <DrillCount value={total} href={drillHref(f)} label={t('drill.calls')} />
          </Stat>
          <Stat label={t('dashboard.averageScore')} testId="dashboard-average">
            <DrillFigure text={score(avgScore)} count={scoredCalls} href={drillHref(f)} label={t('drill.calls')} />
          </Stat>
          <Stat label={t('dashboard.averageCoverage')} testId="dashboard-coverage">
            <DrillFigure
              text={pct(avgCoverage)}
              count={coverageCalls}
              href={drillHref(f, { coverage: true })}
              label={t('drill.coverageCalls')}
            />
          </Stat>
          <Stat label={t('dashboard.criticalFails')} testId="dashboard-critical">
            <DrillCount
              value={criticalFails}
              href={drillHref(f, { critical: true })}
              label={t('drill.criticalFails')}
            />
          </Stat>
        </div>

        {empty ? (
          <Card>
            <EmptyState icon="chart" title={t('dashboard.emptyTitle')}>
              {t('dashboard.emptyBody')}
            </EmptyState>
          </Card>
        ) : (
          <>
            <ReportCard
              {...card}
              table="trend"
              title={t('dashboard.trendTitle')}
              description={t('dashboard.trendLead')}
            >
              <LineChart
                title={t('dashboard.trendTitle')}
                labels={trendRows.map((r) => periodLabel(r.period))}
                links={trendRows.map((r) => ({
                  href: drillHref(f, bucketDays(r.period, f.interval, f)),
                  count: r.calls,
                  label: t('drill.open', {
                    n: n(r.calls),
                    what: t('drill.period', { period: periodLabel(r.period, 'long') }),
                  }),
                }))}
                series={[
                  {
                    name: t('dashboard.averageScore'),
                    color: 'var(--accent)',
                    values: trendRows.map((r) => r.averageScore),
                    format: score,
                  },
                  {
                    name: t('dashboard.averageCoverage'),
                    color: '#10b981',
                    values: trendRows.map((r) => (r.averageCoverage == null ? null : r.averageCoverage * 100)),
                    format: (v) => pct(v / 100),
                  },
                ]}
              />
              <div className="legend">
                <span>
                  <i style={{ background: 'var(--accent)' }} />
                  {t('dashboard.averageScore')}
                </span>
                <span>
                  <i style={{ background: '#10b981' }} />
                  {t('dashboard.averageCoverage')}
                </span>
              </div>
            </ReportCard>

            <ReportCard
              {...card}
              table="agents"
              title={t('dashboard.agentsTitle')}
              description={t('dashboard.changeLead')}
            >
              <BreakdownTable
                testId="dashboard-agents"
                first={t('dashboard.agent')}
                rows={agentRows.map((r) => ({ ...r, name: r.name ?? '—' }))}
                fmt={{ n, score, pct, signed, feeling }}
                previous={previous}
                href={(r, narrow) => drillHref(f, { agent: r.id, ...narrow })}
              />
            </ReportCard>

            <ReportCard {...card} table="campaigns" title={t('dashboard.campaignsTitle')}>
              <BreakdownTable
                testId="dashboard-campaigns"
                first={t('dashboard.campaign')}
                rows={campaignRows.map((r) => ({ ...r, name: r.name ?? t('dashboard.noCampaign') }))}
                fmt={{ n, score, pct, signed, feeling }}
                previous={previous}
                href={(r, narrow) => drillHref(f, { campaign: r.id ?? NO_CAMPAIGN, ...narrow })}
              />
            </ReportCard>

            <ReportCard
              {...card}
              table="criteria"
              title={t('dashboard.criteriaTitle')}
              description={t('dashboard.criteriaLead')}
            >
              <DataTable
                testId="dashboard-criteria"
                head={
                  <>
                    <th>{t('dashboard.criterion')}</th>
                    <th className="num">{t('dashboard.passRate')}</th>
                    <th className="num">{t('dashboard.passed')}</th>
                    <th className="num">{t('dashboard.failed')}</th>
                    <th className="num">{t('dashboard.na')}</th>
                    <th className="num">{t('dashboard.criticalFails')}</th>
                  </>
                }
              >
                {criterionRows.map((r) => {
                  const criterion = r.label ?? r.key;
                  const cell = (value: number, results: string, what: MessageKey, critical = false) => (
                    <td className="num">
                      <DrillCount
                        value={value}
                        href={drillHref(f, { criterion: r.key, results, criterionCritical: critical })}
                        label={t(what, { criterion })}
                      />
                    </td>
                  );
                  return (
                    <tr key={r.key}>
                      <td>{criterion}</td>
                      <td className="num">
                        {/* The pass rate is passed / (passed + failed): it opens the passed calls. */}
                        <DrillFigure
                          text={pct(r.passRate)}
                          count={r.passed}
                          href={drillHref(f, { criterion: r.key, results: 'passed' })}
                          label={t('drill.passShare', { criterion, total: n(r.passed + r.failed) })}
                        />
                      </td>
                      {cell(r.passed, 'passed', 'drill.passed')}
                      {cell(r.failed, 'failed', 'drill.failed')}
                      {cell(r.na, 'na', 'drill.na')}
                      {cell(r.criticalFails, 'failed', 'drill.criticalCriterion', true)}
                    </tr>
                  );
                })}
              </DataTable>
            </ReportCard>

            <div className="grid-2">
              <ReportCard {...card} table="distribution" title={t('dashboard.distributionTitle')}>
                <BarChart
                  title={t('dashboard.distributionTitle')}
                  data={bands.map((b) => ({
                    label: `${b.from}–${b.to}`,
                    values: [
                      {
                        name: t('dashboard.calls'),
                        value: b.calls,
                        color: 'var(--accent)',
                        href: drillHref(f, bandNarrow(b.from, b.to)),
                      },
                    ],
                  }))}
                />
              </ReportCard>
              <ReportCard {...card} table="topics" title={t('dashboard.topicsTitle')}>
                {topicBars.length === 0 ? (
                  <p className="muted">{t('dashboard.noTopics')}</p>
                ) : (
                  <>
                    <BarChart title={t('dashboard.topicsTitle')} data={topicBars} />
                    <div className="legend">
                      {[...top, ...(topicTotals.size > top.length ? [t('dashboard.otherTopics')] : [])].map((k, i) => (
                        <span key={k}>
                          <i style={{ background: TOPIC_COLORS[i < top.length ? i : 6] }} />
                          {k}{' '}
                          <strong className="num">
                            {top.includes(k) ? (
                              <DrillCount
                                value={topicTotals.get(k) ?? 0}
                                href={drillHref(f, { topic: k, exactTopic: true })}
                                label={t('drill.topic', { topic: k })}
                              />
                            ) : (
                              <DrillCount
                                value={otherTotal}
                                href={drillHref(f, { otherTopics: top })}
                                label={t('drill.otherTopics')}
                              />
                            )}
                          </strong>
                        </span>
                      ))}
                    </div>
                  </>
                )}
              </ReportCard>
            </div>

            <SentimentReportCard rows={sentimentRows} label={periodLabel} filters={f} />

            <DisputesCard rows={disputeRows} label={periodLabel} filters={f} />
          </>
        )}
      </div>
    </div>
  );
}

/** A report's rows, or none while it loads or when it answered a typed error. */
type RowsOf<V> = V extends { rows: infer R } ? R : never;
function rowsOf<V extends { __typename: string }>(answer: V | null | undefined): RowsOf<V> | [] {
  return answer && 'rows' in answer ? (answer.rows as RowsOf<V>) : [];
}
function errorOf(answer: { __typename: string } | null | undefined): { code: string; message: string } | null {
  return answer && 'code' in answer && 'message' in answer ? (answer as { code: string; message: string }) : null;
}

/** One dashboard view: the shared report card, its CSV under the dashboard's filter. */
function ReportCard({
  table,
  filters,
  ...card
}: {
  table: string;
  filters: Filters;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return <Report {...card} csvId={table} csvHref={csvUrl(table, filters)} />;
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/** One of the filter's lists: "all" first, then one option per item. */
function FilterSelect({
  id,
  label,
  all,
  value,
  onChange,
  options = [],
}: {
  id: string;
  label: string;
  all: string;
  value: string;
  onChange: (value: string) => void;
  options?: readonly { id: string; name: string }[];
}) {
  return (
    <Field id={id} label={label}>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="card stat">
      <div className="label">{label}</div>
      <div className="value" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

interface BreakdownRow {
  id: string | null;
  name: string;
  calls: number;
  averageScore: number | null;
  averageCoverage: number | null;
  coverageCalls: number;
  criticalFails: number;
  previousCalls: number;
  previousAverageScore: number | null;
  change: number | null;
  averageCustomerSentiment: number | null;
  customerSentimentCalls: number;
}

function BreakdownTable({
  rows,
  first,
  testId,
  fmt,
  previous,
  href,
}: {
  rows: BreakdownRow[];
  first: string;
  testId: string;
  fmt: Record<'n' | 'score' | 'pct' | 'signed' | 'feeling', (v: number | null | undefined) => string>;
  /** The previous period's days (previousDays): what the previous score and the change count. */
  previous: { from: string; to: string };
  /** The calls list of a row, narrowed further (critical fails, other days, …). */
  href: (row: BreakdownRow, narrow: Partial<CallsQuery>) => string;
}) {
  const { t } = useT();
  return (
    <DataTable
      testId={testId}
      head={
        <>
          <th>{first}</th>
          <th className="num">{t('dashboard.calls')}</th>
          <th className="num">{t('dashboard.averageScore')}</th>
          <th className="num">{t('dashboard.averageCoverage')}</th>
          <th className="num">{t('dashboard.criticalFails')}</th>
          <th className="num">{t('dashboard.previous')}</th>
          <th className="num">{t('dashboard.change')}</th>
          {/* One sentiment column so the table fits beside a CRM at 960 px; the shares that ended
              better or worse per agent and campaign are in the CSV (and per period in the sentiment card). */}
          <th className="num">{t('dashboard.customerSentiment')}</th>
        </>
      }
    >
      {rows.map((r) => (
        <tr key={r.id ?? 'none'}>
          <td>{r.name}</td>
          <td className="num">
            <DrillCount
              value={r.calls}
              href={href(r, {})}
              label={t('drill.of', { what: t('drill.calls'), name: r.name })}
            />
          </td>
          <td className="num">
            <DrillFigure
              text={fmt.score(r.averageScore)}
              count={r.averageScore == null ? 0 : r.calls}
              href={href(r, {})}
              label={t('drill.averageOf', { name: r.name })}
            />
          </td>
          <td className="num">
            <DrillFigure
              text={fmt.pct(r.averageCoverage)}
              count={r.averageCoverage == null ? 0 : r.coverageCalls}
              href={href(r, { coverage: true })}
              label={t('drill.coverageOf', { name: r.name })}
            />
          </td>
          <td className="num">
            <DrillCount
              value={r.criticalFails}
              href={href(r, { critical: true })}
              label={t('drill.of', { what: t('drill.criticalFails'), name: r.name })}
            />
          </td>
          <td className="num">
            <DrillFigure
              text={fmt.score(r.previousAverageScore)}
              count={r.previousAverageScore == null ? 0 : r.previousCalls}
              href={href(r, previous)}
              label={t('drill.previousOf', { name: r.name })}
            />
          </td>
          <td className="num">
            {/* The change compares both periods: it opens the calls of both. */}
            <DrillFigure
              text={fmt.signed(r.change)}
              count={r.change == null ? 0 : r.calls + r.previousCalls}
              href={href(r, { from: previous.from })}
              label={t('drill.changeOf', { name: r.name })}
            />
          </td>
          <td className="num">
            <DrillFigure
              text={fmt.feeling(r.averageCustomerSentiment)}
              count={r.averageCustomerSentiment == null ? 0 : r.customerSentimentCalls}
              href={href(r, { sentiment: 'measured' })}
              label={t('drill.sentimentOf', { name: r.name })}
            />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** A period of the sentiment report as the query reads it (graphql-env.d.ts), not a copy of the server's type. */
type SentimentRow = RowsOf<NonNullable<ResultOf<typeof DashboardSentiment>['reportSentiment']>>[number];

/**
 * The customers' sentiment per period: the period's figures in words, the shares that ended better
 * and worse as lines, and the table the CSV holds. The period's average weighs each bucket by its
 * calls with a sentiment; the shares are exact (counts over counts).
 */
function SentimentReportCard({
  rows,
  label,
  filters,
}: {
  rows: SentimentRow[];
  label: (day: string) => string;
  filters: Filters;
}) {
  const { t, locale } = useT();
  const pct = (v: number | null) => formatPercent(v, locale);
  const feeling = (v: number | null) => (v == null ? '—' : signedScore(v, locale));
  const withSentiment = rows.filter((r) => r.sentimentCalls > 0 && r.averageCustomerSentiment != null);
  const sentimentCalls = withSentiment.reduce((s, r) => s + r.sentimentCalls, 0);
  const average = sentimentCalls
    ? withSentiment.reduce((s, r) => s + (r.averageCustomerSentiment as number) * r.sentimentCalls, 0) / sentimentCalls
    : null;
  const trendCalls = rows.reduce((s, r) => s + r.trendCalls, 0);
  const count = (k: 'improved' | 'worsened') => rows.reduce((s, r) => s + r[k], 0);
  const share = (k: 'improved' | 'worsened') => (trendCalls ? count(k) / trendCalls : null);
  const n = (v: number) => formatNumber(v, locale);
  // Every figure opens the calls it is computed over: an average its calls with a sentiment, a
  // share its numerator's calls (the name says the denominator).
  const open = (days: { from: string; to: string }, sentiment: 'measured' | 'improved' | 'worsened') =>
    drillHref(filters, { from: days.from, to: days.to, sentiment });
  const range = { from: filters.from, to: filters.to };
  const BETTER = '#10b981';
  const WORSE = '#ef4444';
  return (
    <ReportCard
      filters={filters}
      table="sentiment"
      title={t('dashboard.sentimentTitle')}
      description={t('dashboard.sentimentLead')}
    >
      {sentimentCalls === 0 && trendCalls === 0 ? (
        <p className="muted" data-testid="dashboard-sentiment-empty">
          {t('dashboard.noSentiment')}
        </p>
      ) : (
        <>
          <div className="legend">
            <span>
              {t('dashboard.sentimentAverage')}{' '}
              <strong className="num" data-testid="dashboard-sentiment-average">
                <DrillFigure
                  text={feeling(average)}
                  count={sentimentCalls}
                  href={open(range, 'measured')}
                  label={t('drill.sentimentCalls')}
                />
              </strong>
            </span>
            <span>
              <i style={{ background: BETTER }} />
              {t('dashboard.endedBetter')}{' '}
              <strong className="num" data-testid="dashboard-sentiment-better">
                <DrillFigure
                  text={pct(share('improved'))}
                  count={count('improved')}
                  href={open(range, 'improved')}
                  label={t('drill.betterShare', { total: n(trendCalls) })}
                />
              </strong>
            </span>
            <span>
              <i style={{ background: WORSE }} />
              {t('dashboard.endedWorse')}{' '}
              <strong className="num" data-testid="dashboard-sentiment-worse">
                <DrillFigure
                  text={pct(share('worsened'))}
                  count={count('worsened')}
                  href={open(range, 'worsened')}
                  label={t('drill.worseShare', { total: n(trendCalls) })}
                />
              </strong>
            </span>
          </div>
          <LineChart
            title={t('dashboard.sentimentTitle')}
            labels={rows.map((r) => label(r.period))}
            series={[
              {
                name: t('dashboard.endedBetter'),
                color: BETTER,
                values: rows.map((r) => (r.improvedShare == null ? null : r.improvedShare * 100)),
                format: (v) => pct(v / 100),
              },
              {
                name: t('dashboard.endedWorse'),
                color: WORSE,
                values: rows.map((r) => (r.worsenedShare == null ? null : r.worsenedShare * 100)),
                format: (v) => pct(v / 100),
              },
            ]}
          />
          <DataTable
            testId="dashboard-sentiment"
            head={
              <>
                <th>{t('dashboard.period')}</th>
                <th className="num">{t('dashboard.sentimentCalls')}</th>
                <th className="num">{t('dashboard.customerSentiment')}</th>
                <th className="num">{t('dashboard.endedBetter')}</th>
                <th className="num">{t('dashboard.endedWorse')}</th>
              </>
            }
          >
            {rows.map((r) => (
              <tr key={r.period}>
                <td>{label(r.period)}</td>
                <td className="num">
                  <DrillCount
                    value={r.sentimentCalls}
                    href={drillHref(filters, {
                      ...bucketDays(r.period, filters.interval, filters),
                      sentiment: 'measured',
                    })}
                    label={t('drill.sentimentCalls')}
                  />
                </td>
                <td className="num">
                  <DrillFigure
                    text={feeling(r.averageCustomerSentiment)}
                    count={r.averageCustomerSentiment == null ? 0 : r.sentimentCalls}
                    href={open(bucketDays(r.period, filters.interval, filters), 'measured')}
                    label={t('drill.sentimentCalls')}
                  />
                </td>
                <td className="num">
                  <DrillFigure
                    text={pct(r.improvedShare)}
                    count={r.improvedShare == null ? 0 : r.improved}
                    href={open(bucketDays(r.period, filters.interval, filters), 'improved')}
                    label={t('drill.betterShare', { total: n(r.trendCalls) })}
                  />
                </td>
                <td className="num">
                  <DrillFigure
                    text={pct(r.worsenedShare)}
                    count={r.worsenedShare == null ? 0 : r.worsened}
                    href={open(bucketDays(r.period, filters.interval, filters), 'worsened')}
                    label={t('drill.worseShare', { total: n(r.trendCalls) })}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </ReportCard>
  );
}

type DisputeRow = RowsOf<NonNullable<ResultOf<typeof DashboardDisputes>['reportDisputes']>>[number];

/** The outcomes the chart stacks, with their colour and label. */
const DISPUTE_PARTS = [
  { key: 'accepted', outcome: 'accepted', color: '#10b981', label: 'dashboard.disputesAccepted' },
  { key: 'rejected', outcome: 'rejected', color: '#ef4444', label: 'dashboard.disputesRejected' },
  { key: 'stillOpen', outcome: 'still_open', color: '#f59e0b', label: 'dashboard.disputesStillOpen' },
] as const;

/** Agents' disputes per period: a chart of their outcomes and the table the CSV holds. */
function DisputesCard({
  rows,
  label,
  filters,
}: {
  rows: DisputeRow[];
  label: (day: string) => string;
  filters: Filters;
}) {
  const { t, locale } = useT();
  const n = (v: number) => formatNumber(v, locale);
  const hours = (v: number | null) => formatHours(v, locale);
  const sum = (k: (typeof DISPUTE_PARTS)[number]['key']) => rows.reduce((s, r) => s + r[k], 0);
  return (
    <ReportCard
      filters={filters}
      table="disputes"
      title={t('dashboard.disputesTitle')}
      description={t('dashboard.disputesLead')}
    >
      {rows.length === 0 ? (
        <p className="muted" data-testid="dashboard-disputes-empty">
          {t('dashboard.noDisputes')}
        </p>
      ) : (
        <>
          <BarChart
            title={t('dashboard.disputesTitle')}
            data={rows.map((r) => ({
              label: label(r.period),
              values: DISPUTE_PARTS.map((p) => ({
                name: t(p.label),
                value: r[p.key],
                color: p.color,
                href: disputeHref(filters, p.outcome, bucketDays(r.period, filters.interval, filters)),
              })),
            }))}
          />
          <div className="legend">
            {DISPUTE_PARTS.map((p) => (
              <span key={p.key}>
                <i style={{ background: p.color }} />
                {t(p.label)} <strong className="num">{n(sum(p.key))}</strong>
              </span>
            ))}
          </div>
          <DataTable
            testId="dashboard-disputes"
            head={
              <>
                <th>{t('dashboard.period')}</th>
                <th className="num">{t('dashboard.disputesOpened')}</th>
                <th className="num">{t('dashboard.disputesStillOpen')}</th>
                <th className="num">{t('dashboard.disputesAccepted')}</th>
                <th className="num">{t('dashboard.disputesRejected')}</th>
                <th className="num">{t('dashboard.disputesMedian')}</th>
              </>
            }
          >
            {rows.map((r) => {
              const days = bucketDays(r.period, filters.interval, filters);
              const cell = (
                value: number,
                outcome: 'opened' | 'still_open' | 'accepted' | 'rejected',
                what: MessageKey,
              ) => (
                <td className="num">
                  <DrillCount
                    value={value}
                    href={disputeHref(filters, outcome, days)}
                    label={t('drill.dispute', { outcome: t(what).toLowerCase() })}
                  />
                </td>
              );
              return (
                <tr key={r.period}>
                  <td>{label(r.period)}</td>
                  {cell(r.opened, 'opened', 'dashboard.disputesOpened')}
                  {cell(r.stillOpen, 'still_open', 'dashboard.disputesStillOpen')}
                  {cell(r.accepted, 'accepted', 'dashboard.disputesAccepted')}
                  {cell(r.rejected, 'rejected', 'dashboard.disputesRejected')}
                  <td className="num">{hours(r.medianHoursToResolve)}</td>
                </tr>
              );
            })}
          </DataTable>
        </>
      )}
    </ReportCard>
  );
}
