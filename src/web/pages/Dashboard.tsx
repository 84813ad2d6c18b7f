import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { BarChart, Legend, LineChart, type LineSeries } from '../components/charts.tsx';
import { DrillCount, DrillFigure, ReportCard as Report } from '../components/report-card.tsx';
import { signedScore } from '../components/sentiment.tsx';
import { FilterField, FilterSelect } from '../components/filter-field.tsx';
import { Stat } from '../components/stat.tsx';
import { HeadCells } from '../components/table-head.tsx';
import { Alert, Card, DataTable, EmptyState, PageHeader } from '../components/ui.tsx';
import { addDays, dayIn } from '../lib/account-days.ts';
import {
  bandNarrow,
  bucketDays,
  type DashboardFilter,
  disputeHref,
  drillHref,
  type Interval,
  previousDays,
} from '../lib/drill-down.ts';
import type { CallsQuery } from '../lib/call-filters.ts';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { describeError } from '../lib/errors.ts';
import { formatHours, formatNumber, formatPercent, formatScore, useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { type DashboardRow, useDashboardReports } from '../lib/dashboard-reports.ts';
import { MachineAgreementFlag } from '../components/machine-agreement.tsx';

/*
 * The dashboard (issue 10.5): score and coverage over time, per agent, campaign and criterion,
 * score distribution, topics over time, the customers' sentiment (issue 14) and agents' disputes, each from one GraphQL report query
 * (lib/dashboard-reports.ts; read from daily rollups, see src/reports/reports.ts; disputes from their table) with the same filter,
 * and each table downloadable as CSV from /api/reports/<table>.csv with that filter.
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

const INTERVALS = ['DAY', 'WEEK', 'MONTH'] as const satisfies Interval[];
/** A language code as an option of the filter: its value and its text. */
const named = (code: string) => ({ id: code, name: code });

/** The figures' columns of the tables, after the rows' names (the CSVs hold the same and more). */
const CRITERIA_COLUMNS = [
  'dashboard.passRate',
  'dashboard.passed',
  'dashboard.failed',
  'dashboard.na',
  'dashboard.criticalFails',
] as const;
// One sentiment column so the table fits beside a CRM at 960 px; the shares that ended better or worse
// per agent and campaign are in the CSV (and per period in the sentiment card).
const BREAKDOWN_COLUMNS = [
  'dashboard.calls',
  'dashboard.averageScore',
  'dashboard.averageCoverage',
  'dashboard.criticalFails',
  'dashboard.previous',
  'dashboard.change',
  'dashboard.customerSentiment',
] as const;
const SENTIMENT_COLUMNS = [
  'dashboard.sentimentCalls',
  'dashboard.customerSentiment',
  'dashboard.endedBetter',
  'dashboard.endedWorse',
] as const;
const DISPUTE_COLUMNS = [
  'dashboard.disputesOpened',
  'dashboard.disputesStillOpen',
  'dashboard.disputesAccepted',
  'dashboard.disputesRejected',
  'dashboard.disputesMedian',
] as const;

type Days = { from: string; to: string };
/** The dashboard's tables (each a card and a CSV, /api/reports/<table>.csv). */
const TABLES = ['trend', 'agents', 'campaigns', 'criteria', 'distribution', 'topics', 'sentiment', 'disputes'] as const;

/** The dashboard's filter: the drill-down's, and the periods the charts and tables group by. */
type Filters = DashboardFilter & { interval: Interval };

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
  // A stable filter while it is the same (urql refetches when the object changes).
  const filterKey = JSON.stringify(reportFilter(f));
  const filter = useMemo(() => JSON.parse(filterKey) as ReturnType<typeof reportFilter>, [filterKey]);
  const reports = useDashboardReports(filter, f.interval, !options);
  const { trend: trendRows, agents: agentRows, campaigns: campaignRows, criteria: criterionRows } = reports.rows;
  const { distribution: bands, topics: topicRows, sentiment: sentimentRows, disputes: disputeRows } = reports.rows;
  const failure = reports.failure;

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

  // The filter's lists, each with its "all" (no filter).
  const lists = [
    { key: 'agent', all: 'dashboard.allAgents', items: options?.agents },
    {
      key: 'campaign',
      all: 'dashboard.allCampaigns',
      items: [{ id: NO_CAMPAIGN, name: t('dashboard.noCampaign') }, ...(options?.campaigns ?? [])],
    },
    { key: 'template', all: 'dashboard.allTemplates', items: options?.templates },
    { key: 'language', all: 'dashboard.allLanguages', items: options?.callFilterOptions.languages.map(named) },
  ] as const;
  const trendSeries: LineSeries[] = [
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
  ];
  // Per agent and per campaign: the same table, each row opening its agent's or campaign's calls.
  const breakdowns = [
    {
      table: 'agents' as const,
      lead: 'dashboard.changeLead' as const,
      first: t('dashboard.agent'),
      rows: agentRows.map((r) => ({ ...r, name: r.name ?? '—' })),
      narrow: (id: string | null) => ({ agent: id }),
    },
    {
      table: 'campaigns' as const,
      first: t('dashboard.campaign'),
      rows: campaignRows.map((r) => ({ ...r, name: r.name ?? t('dashboard.noCampaign') })),
      narrow: (id: string | null) => ({ campaign: id ?? NO_CAMPAIGN }),
    },
  ];
  const card = { filters: f };
  const empty = reports.trendAnswered && total === 0;
  // Each card has its own query, so numbers arrive one by one: the page says it is busy until the last
  // has answered (screen readers announce it; tests wait on it instead of on one figure).
  const busy = !options || reports.fetching;

  return (
    <div className="page">
      <PageHeader title={t('nav.dashboard')} description={t('dashboard.lead', { zone })} />
      <div className="stack" aria-busy={busy || undefined} data-testid="dashboard">
        <MachineAgreementFlag />
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is not yet in every browser the app supports. */}
        <div className="card" role="search" aria-label={t('dashboard.filters')}>
          <div className="filters">
            {(['from', 'to'] as const).map((key) => (
              <FilterField key={key} id={`d-${key}`} label={t(`dashboard.${key}`)}>
                <input
                  id={`d-${key}`}
                  className="input"
                  type="date"
                  value={f[key]}
                  // Neither end passes the other.
                  {...(key === 'from' ? { max: f.to } : { min: f.from })}
                  onChange={(e) => e.target.value && set({ [key]: e.target.value })}
                />
              </FilterField>
            ))}
            <FilterField id="d-interval" label={t('dashboard.interval')}>
              <select
                id="d-interval"
                className="select"
                value={f.interval}
                onChange={(e) => set({ interval: e.target.value as Interval })}
              >
                {INTERVALS.map((i) => (
                  <option key={i} value={i}>
                    {t(`dashboard.${i.toLowerCase() as Lowercase<Interval>}`)}
                  </option>
                ))}
              </select>
            </FilterField>
            {lists.map(({ key, all, items }) => (
              <FilterSelect
                key={key}
                id={`d-${key}`}
                label={t(`dashboard.${key}`)}
                all={t(all)}
                value={f[key]}
                onChange={(value) => set({ [key]: value })}
                options={items}
              />
            ))}
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
            <ReportCard {...card} table="trend" lead="dashboard.trendLead">
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
                series={trendSeries}
              />
              <Legend items={trendSeries.map((s) => ({ color: s.color, label: s.name }))} />
            </ReportCard>

            {breakdowns.map((b) => (
              <ReportCard key={b.table} {...card} table={b.table} lead={b.lead}>
                <BreakdownTable
                  testId={`dashboard-${b.table}`}
                  first={b.first}
                  rows={b.rows}
                  fmt={{ n, score, pct, signed, feeling }}
                  previous={previous}
                  href={(r, narrow) => drillHref(f, { ...b.narrow(r.id), ...narrow })}
                />
              </ReportCard>
            ))}

            <ReportCard {...card} table="criteria" lead="dashboard.criteriaLead">
              <DataTable
                testId="dashboard-criteria"
                head={<HeadCells first={t('dashboard.criterion')} columns={CRITERIA_COLUMNS} className="num" />}
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
              <ReportCard {...card} table="distribution">
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
              <ReportCard {...card} table="topics">
                {topicBars.length === 0 ? (
                  <p className="muted">{t('dashboard.noTopics')}</p>
                ) : (
                  <>
                    <BarChart title={t('dashboard.topicsTitle')} data={topicBars} />
                    <Legend
                      items={[...top, ...(topicTotals.size > top.length ? [t('dashboard.otherTopics')] : [])].map(
                        (k, i) => ({
                          color: TOPIC_COLORS[i < top.length ? i : 6],
                          label: k,
                          value: top.includes(k) ? (
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
                          ),
                        }),
                      )}
                    />
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

/**
 * One dashboard view: the shared report card, titled after its table (`dashboard.<table>Title`), with
 * its lead and its CSV under the dashboard's filter.
 */
function ReportCard({
  table,
  filters,
  lead,
  children,
}: {
  table: (typeof TABLES)[number];
  filters: Filters;
  lead?: MessageKey;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <Report
      title={t(`dashboard.${table}Title`)}
      description={lead && t(lead)}
      csvId={table}
      csvHref={csvUrl(table, filters)}
    >
      {children}
    </Report>
  );
}

/** An agent's or a campaign's row, named ("no campaign" for calls without one). */
type BreakdownRow = Omit<DashboardRow<'agents'>, 'name'> & { name: string };

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
    <DataTable testId={testId} head={<HeadCells first={first} columns={BREAKDOWN_COLUMNS} className="num" />}>
      {rows.map((r) => {
        const count = (value: number, narrow: Partial<CallsQuery>, what: MessageKey) => (
          <td className="num">
            <DrillCount value={value} href={href(r, narrow)} label={t('drill.of', { what: t(what), name: r.name })} />
          </td>
        );
        // A figure opens the calls it is computed over; no figure opens nothing.
        const figure = (
          value: number | null,
          text: string,
          calls: number,
          narrow: Partial<CallsQuery>,
          what: MessageKey,
        ) => (
          <td className="num">
            <DrillFigure
              text={text}
              count={value == null ? 0 : calls}
              href={href(r, narrow)}
              label={t(what, { name: r.name })}
            />
          </td>
        );
        return (
          <tr key={r.id ?? 'none'}>
            <td>{r.name}</td>
            {count(r.calls, {}, 'drill.calls')}
            {figure(r.averageScore, fmt.score(r.averageScore), r.calls, {}, 'drill.averageOf')}
            {figure(
              r.averageCoverage,
              fmt.pct(r.averageCoverage),
              r.coverageCalls,
              { coverage: true },
              'drill.coverageOf',
            )}
            {count(r.criticalFails, { critical: true }, 'drill.criticalFails')}
            {figure(
              r.previousAverageScore,
              fmt.score(r.previousAverageScore),
              r.previousCalls,
              previous,
              'drill.previousOf',
            )}
            {/* The change compares both periods: it opens the calls of both. */}
            {figure(
              r.change,
              fmt.signed(r.change),
              r.calls + r.previousCalls,
              { from: previous.from },
              'drill.changeOf',
            )}
            {figure(
              r.averageCustomerSentiment,
              fmt.feeling(r.averageCustomerSentiment),
              r.customerSentimentCalls,
              { sentiment: 'measured' },
              'drill.sentimentOf',
            )}
          </tr>
        );
      })}
    </DataTable>
  );
}

/** A card of periods: its report's rows, the periods' labels, and the dashboard's filter. */
interface PeriodCardProps<Row> {
  rows: Row[];
  label: (day: string) => string;
  filters: Filters;
}

/**
 * The customers' sentiment per period: the period's figures in words, the shares that ended better
 * and worse as lines, and the table the CSV holds. The period's average weighs each bucket by its
 * calls with a sentiment; the shares are exact (counts over counts).
 */
function SentimentReportCard({ rows, label, filters }: PeriodCardProps<DashboardRow<'sentiment'>>) {
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
  const open = (days: Days, sentiment: 'measured' | 'improved' | 'worsened') =>
    drillHref(filters, { from: days.from, to: days.to, sentiment });
  // No figure (no calls with a sentiment or a trend) opens nothing.
  const averageOf = (value: number | null, calls: number, days: Days) => (
    <DrillFigure
      text={feeling(value)}
      count={value == null ? 0 : calls}
      href={open(days, 'measured')}
      label={t('drill.sentimentCalls')}
    />
  );
  const shareOf = (k: 'improved' | 'worsened', value: number | null, calls: number, days: Days, total: number) => (
    <DrillFigure
      text={pct(value)}
      count={value == null ? 0 : calls}
      href={open(days, k)}
      label={t(k === 'improved' ? 'drill.betterShare' : 'drill.worseShare', { total: n(total) })}
    />
  );
  const range = { from: filters.from, to: filters.to };
  const BETTER = '#10b981';
  const WORSE = '#ef4444';
  return (
    <ReportCard filters={filters} table="sentiment" lead="dashboard.sentimentLead">
      {sentimentCalls === 0 && trendCalls === 0 ? (
        <p className="muted" data-testid="dashboard-sentiment-empty">
          {t('dashboard.noSentiment')}
        </p>
      ) : (
        <>
          <Legend
            items={[
              {
                label: t('dashboard.sentimentAverage'),
                testId: 'dashboard-sentiment-average',
                value: averageOf(average, sentimentCalls, range),
              },
              {
                color: BETTER,
                label: t('dashboard.endedBetter'),
                testId: 'dashboard-sentiment-better',
                value: shareOf('improved', share('improved'), count('improved'), range, trendCalls),
              },
              {
                color: WORSE,
                label: t('dashboard.endedWorse'),
                testId: 'dashboard-sentiment-worse',
                value: shareOf('worsened', share('worsened'), count('worsened'), range, trendCalls),
              },
            ]}
          />
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
            head={<HeadCells first={t('dashboard.period')} columns={SENTIMENT_COLUMNS} className="num" />}
          >
            {rows.map((r) => {
              const days = bucketDays(r.period, filters.interval, filters);
              return (
                <tr key={r.period}>
                  <td>{label(r.period)}</td>
                  <td className="num">
                    <DrillCount
                      value={r.sentimentCalls}
                      href={open(days, 'measured')}
                      label={t('drill.sentimentCalls')}
                    />
                  </td>
                  <td className="num">{averageOf(r.averageCustomerSentiment, r.sentimentCalls, days)}</td>
                  <td className="num">{shareOf('improved', r.improvedShare, r.improved, days, r.trendCalls)}</td>
                  <td className="num">{shareOf('worsened', r.worsenedShare, r.worsened, days, r.trendCalls)}</td>
                </tr>
              );
            })}
          </DataTable>
        </>
      )}
    </ReportCard>
  );
}

/** The outcomes the chart stacks, with their colour and label. */
const DISPUTE_PARTS = [
  { key: 'accepted', outcome: 'accepted', color: '#10b981', label: 'dashboard.disputesAccepted' },
  { key: 'rejected', outcome: 'rejected', color: '#ef4444', label: 'dashboard.disputesRejected' },
  { key: 'stillOpen', outcome: 'still_open', color: '#f59e0b', label: 'dashboard.disputesStillOpen' },
] as const;

/** Agents' disputes per period: a chart of their outcomes and the table the CSV holds. */
function DisputesCard({ rows, label, filters }: PeriodCardProps<DashboardRow<'disputes'>>) {
  const { t, locale } = useT();
  const n = (v: number) => formatNumber(v, locale);
  const hours = (v: number | null) => formatHours(v, locale);
  const sum = (k: (typeof DISPUTE_PARTS)[number]['key']) => rows.reduce((s, r) => s + r[k], 0);
  return (
    <ReportCard filters={filters} table="disputes" lead="dashboard.disputesLead">
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
          <Legend items={DISPUTE_PARTS.map((p) => ({ color: p.color, label: t(p.label), value: n(sum(p.key)) }))} />
          <DataTable
            testId="dashboard-disputes"
            head={<HeadCells first={t('dashboard.period')} columns={DISPUTE_COLUMNS} className="num" />}
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
