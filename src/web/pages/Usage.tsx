import { TimeZoneNote } from '../components/TimeZoneNote.tsx';
import { useQuery } from 'urql';
import { BarChart } from '../components/charts.tsx';
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
              <div className="card stat">
                <div className="label">{t('usage.calls')}</div>
                <div className="value" data-testid="usage-calls">
                  {n(current.calls)}
                </div>
                <div className="sub">{formatPeriod(current.period, locale)}</div>
              </div>
              <div className="card stat">
                <div className="label">{t('usage.minutesUsed')}</div>
                <div className="value">{n(current.minutesUsed)}</div>
                <div className="sub">{t('usage.ofPlan', { n: n(current.planMinutes) })}</div>
              </div>
              <div className="card stat">
                <div className="label">{t('usage.minutesReserved')}</div>
                <div className="value">{n(current.minutesReserved)}</div>
                <div className="sub">{t('usage.reservedHint')}</div>
              </div>
              <div className="card stat">
                <div className="label">{t('usage.storage')}</div>
                <div className="value">{formatBytes(current.storageBytes, locale)}</div>
                <div className="sub">{t('usage.storageHint')}</div>
                {current.storageFreedBytes > 0 && (
                  <div className="sub" data-testid="storage-freed">
                    {t('dataProtection.storageFreed', { bytes: formatBytes(current.storageFreedBytes, locale) })}
                  </div>
                )}
              </div>
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
                  <span
                    style={{ width: `${pct(current.minutesUsed, current.planMinutes)}%`, background: 'var(--accent)' }}
                  />
                  <span
                    style={{ width: `${pct(current.minutesReserved, current.planMinutes)}%`, background: '#a5b4fc' }}
                  />
                </div>
                <div className="legend">
                  <span>
                    <i style={{ background: 'var(--accent)' }} />
                    {t('usage.minutesUsed')} {n(current.minutesUsed)}
                  </span>
                  <span>
                    <i style={{ background: '#a5b4fc' }} />
                    {t('usage.minutesReserved')} {n(current.minutesReserved)}
                  </span>
                  <span>
                    <i className="silence" />
                    {t('usage.minutesAvailable')} {n(current.minutesAvailable)}
                  </span>
                </div>
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
                    { name: t('usage.minutesUsed'), value: h.minutesUsed, color: 'var(--accent)' },
                    { name: t('usage.minutesReserved'), value: h.minutesReserved, color: '#a5b4fc' },
                  ],
                }))}
              />
              <div className="legend">
                <span>
                  <i style={{ background: 'var(--accent)' }} />
                  {t('usage.minutesUsed')}
                </span>
                <span>
                  <i style={{ background: '#a5b4fc' }} />
                  {t('usage.minutesReserved')}
                </span>
                <span>
                  <i
                    style={{
                      background: 'transparent',
                      borderTop: '2px dashed var(--text-3)',
                      borderRadius: 0,
                      height: 0,
                    }}
                  />
                  {t('usage.planLine')}
                </span>
              </div>
              <DataTable
                head={
                  <>
                    <th>{t('usage.period')}</th>
                    <th className="right">{t('usage.calls')}</th>
                    <th className="right">{t('usage.minutesUsed')}</th>
                    <th className="right">{t('usage.minutesReserved')}</th>
                    <th className="right">{t('usage.minutesAvailable')}</th>
                    <th className="col-plan">{t('usage.ofPlanShort')}</th>
                    <th className="right">{t('usage.storage')}</th>
                  </>
                }
              >
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
