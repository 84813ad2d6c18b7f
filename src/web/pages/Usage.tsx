import { TimeZoneNote } from '../components/TimeZoneNote.tsx';
import { useQuery } from 'urql';
import { BarChart, Legend } from '../components/charts.tsx';
import { Stat } from '../components/stat.tsx';
import { HeadCells } from '../components/table-head.tsx';
import { Alert, Badge, Card, DataTable, EmptyState, PageHeader, ProgressBar } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { describeError } from '../lib/errors.ts';
import { formatBytes, formatNumber, formatPeriod } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';

const UsageQuery = graphql(`
  query Usage {
    usage {
      __typename
      ... on QueryUsageSuccess { data { period calls minutesUsed minutesReserved minutesAvailable planMinutes storageBytes storageFreedBytes current } }
      ... on Error { code message }
    }
    usageHistory(limit: 12) { period calls minutesUsed minutesReserved minutesAvailable planMinutes storageBytes storageFreedBytes current }
    seats { used total }
  }
`);

/** The minutes used and reserved, in the meter, the chart and their keys. */
const USED = 'var(--accent)';
const RESERVED = '#a5b4fc';
/** The plan's limit in the chart: a dashed line, and so its key. */
const PLAN_LINE = { background: 'transparent', borderTop: '2px dashed var(--text-3)', borderRadius: 0, height: 0 };
const HISTORY_COLUMNS = [
  'usage.calls',
  'usage.minutesUsed',
  'usage.minutesReserved',
  'usage.minutesAvailable',
  { key: 'usage.ofPlanShort', className: 'col-plan' },
  'usage.storage',
] as const;

export function UsagePage() {
  const i18n = useT();
  const { t, locale } = i18n;
  const [{ data, error }] = useQuery({ query: UsageQuery });
  const current = data?.usage.__typename === 'QueryUsageSuccess' ? data.usage.data : null;
  const usageError = data?.usage && 'code' in data.usage ? data.usage : null;
  const history = [...(data?.usageHistory ?? [])].reverse();
  const n = (v: number) => formatNumber(v, locale);

  return (
    <div className="page">
      <PageHeader
        title={t('nav.usage')}
        description={
          <>
            {current ? t('usage.leadPeriod', { period: formatPeriod(current.period, locale) }) : t('usage.lead')}{' '}
            <TimeZoneNote months />
          </>
        }
      />
      <div className="stack">
        {(error || usageError) && <Alert tone="red">{describeError(i18n, error ?? usageError)}</Alert>}
        {current && (
          <>
            <div className="grid-4">
              <Stat label={t('usage.calls')} testId="usage-calls" sub={formatPeriod(current.period, locale)}>
                {n(current.calls)}
              </Stat>
              <Stat label={t('usage.minutesUsed')} sub={t('usage.ofPlan', { n: n(current.planMinutes) })}>
                {n(current.minutesUsed)}
              </Stat>
              <Stat label={t('usage.minutesReserved')} sub={t('usage.reservedHint')}>
                {n(current.minutesReserved)}
              </Stat>
              <Stat
                label={t('usage.storage')}
                sub={t('usage.storageHint')}
                after={
                  current.storageFreedBytes > 0 && (
                    <div className="sub" data-testid="storage-freed">
                      {t('dataProtection.storageFreed', { bytes: formatBytes(current.storageFreedBytes, locale) })}
                    </div>
                  )
                }
              >
                {formatBytes(current.storageBytes, locale)}
              </Stat>
            </div>
            <Card
              title={t('usage.minutesTitle')}
              description={t('usage.available', { n: n(current.minutesAvailable) })}
            >
              <div className="stack-sm">
                <div
                  className="meter"
                  style={{ height: 14 }}
                  role="img"
                  aria-label={t('usage.meterLabel', {
                    used: n(current.minutesUsed),
                    reserved: n(current.minutesReserved),
                    available: n(current.minutesAvailable),
                  })}
                >
                  <span style={{ width: `${pct(current.minutesUsed, current.planMinutes)}%`, background: USED }} />
                  <span
                    style={{ width: `${pct(current.minutesReserved, current.planMinutes)}%`, background: RESERVED }}
                  />
                </div>
                <Legend
                  items={[
                    { color: USED, label: `${t('usage.minutesUsed')} ${n(current.minutesUsed)}` },
                    { color: RESERVED, label: `${t('usage.minutesReserved')} ${n(current.minutesReserved)}` },
                    {
                      swatch: { className: 'silence' },
                      label: `${t('usage.minutesAvailable')} ${n(current.minutesAvailable)}`,
                    },
                  ]}
                />
                {current.planMinutes > 0 && current.minutesAvailable / current.planMinutes < 0.1 && (
                  <Alert tone="amber" title={t('usage.lowTitle')}>
                    {t('usage.lowBody')}
                  </Alert>
                )}
              </div>
            </Card>
          </>
        )}
        <Card title={t('usage.history')} description={t('usage.historyLead')}>
          {history.length === 0 ? (
            <EmptyState icon="chart" title={t('usage.emptyTitle')}>
              {t('usage.emptyBody')}
            </EmptyState>
          ) : (
            <div className="stack">
              <BarChart
                title={t('usage.history')}
                unit="min"
                data={history.map((h) => ({
                  label: formatPeriod(h.period, locale, 'short'),
                  limit: h.planMinutes,
                  values: [
                    { name: t('usage.minutesUsed'), value: h.minutesUsed, color: USED },
                    { name: t('usage.minutesReserved'), value: h.minutesReserved, color: RESERVED },
                  ],
                }))}
              />
              <Legend
                items={[
                  { color: USED, label: t('usage.minutesUsed') },
                  { color: RESERVED, label: t('usage.minutesReserved') },
                  { swatch: { style: PLAN_LINE }, label: t('usage.planLine') },
                ]}
              />
              <DataTable head={<HeadCells first={t('usage.period')} columns={HISTORY_COLUMNS} className="right" />}>
                {[...history].reverse().map((h) => (
                  <tr key={h.period}>
                    <td className="nowrap">
                      {formatPeriod(h.period, locale)} {h.current && <Badge tone="accent">{t('usage.current')}</Badge>}
                    </td>
                    <td className="right num">{n(h.calls)}</td>
                    <td className="right num">{n(h.minutesUsed)}</td>
                    <td className="right num">{n(h.minutesReserved)}</td>
                    <td className="right num">{n(h.minutesAvailable)}</td>
                    <td className="col-plan" style={{ minWidth: 120 }}>
                      <ProgressBar
                        value={h.planMinutes ? (h.minutesUsed + h.minutesReserved) / h.planMinutes : 0}
                        label={formatPeriod(h.period, locale)}
                      />
                    </td>
                    <td className="right num">
                      {formatBytes(h.storageBytes, locale)}
                      {h.storageFreedBytes > 0 && (
                        <div className="muted">
                          {t('dataProtection.storageFreed', { bytes: formatBytes(h.storageFreedBytes, locale) })}
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </DataTable>
            </div>
          )}
        </Card>
      </div>
    </div>
  );
}

function pct(v: number, of: number): number {
  return of > 0 ? Math.min(100, (v / of) * 100) : 0;
}
