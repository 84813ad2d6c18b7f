/**
 * Coaching (issue 31.3). A manager reads the report (per agent: open, acknowledged, overdue, done)
 * and one agent's items by view, and marks items done with a note; an agent user sees only their
 * own items, plays each moment, and acknowledges them. The filter lives in the URL (?agent=&view=).
 */
import { useQuery } from 'urql';
import { CoachingItemCard, type CoachingItemData } from '../components/coaching/CoachingItem.tsx';
import { ItemSelect } from '../components/item-select.tsx';
import { useInlinePlayer } from '../components/inline-player.tsx';
import { HeadCells } from '../components/table-head.tsx';
import { Alert, DataTable, EmptyState, LoadingBlock, PageHeader } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError } from '../lib/errors.ts';
import { formatNumber } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { Link, navigate, useLocation } from '../lib/router.tsx';

const CoachingList = graphql(`
  query CoachingList($agentId: ID, $view: CoachingView) {
    coachingItems(agentId: $agentId, view: $view) {
      id status overdue improve moments dueOn assignedByName assignedAt acknowledgedAt completedAt completedByName
      completionNote criteria { key label result } agent { id name } call { id startedAt }
    }
  }
`);

const CoachingReport = graphql(`
  query CoachingReport {
    coachingReport { agentId agentName open acknowledged overdue done }
  }
`);

const VIEWS = ['OPEN', 'OVERDUE', 'DONE'] as const;
/** The report's figures per agent. */
const REPORT_COLUMNS = ['coaching.open', 'coaching.acknowledged', 'coaching.overdue', 'coaching.done'] as const;
type View = (typeof VIEWS)[number];

export function CoachingPage() {
  const i18n = useT();
  const { t, locale } = i18n;
  const role = useRole();
  const isAgent = role === 'AGENT';
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const agentId = isAgent ? null : params.get('agent') || null;
  const view = (VIEWS as readonly string[]).includes(params.get('view')?.toUpperCase() ?? '')
    ? (params.get('view')?.toUpperCase() as View)
    : 'OPEN';
  const go = (patch: { agent?: string | null; view?: View }) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, k === 'view' ? v.toLowerCase() : v);
      else next.delete(k);
    }
    navigate(`/coaching${next.size ? `?${next}` : ''}`, { replace: true });
  };
  const [list, refetch] = useQuery({ query: CoachingList, variables: { agentId, view } });
  const [report, refetchReport] = useQuery({ query: CoachingReport, pause: isAgent });
  const player = useInlinePlayer();
  const items = (list.data?.coachingItems ?? []) as CoachingItemData[];
  const rows = report.data?.coachingReport ?? [];
  const n = (v: number) => formatNumber(v, locale);
  const changed = () => {
    refetch({ requestPolicy: 'network-only' });
    if (!isAgent) refetchReport({ requestPolicy: 'network-only' });
  };
  const error = list.error ?? report.error;
  const cell = (agent: string, value: number, v: View) =>
    value === 0 ? n(0) : <Link to={`/coaching?agent=${agent}&view=${v.toLowerCase()}`}>{n(value)}</Link>;

  return (
    <div className="page stack">
      <PageHeader title={t('coaching.title')} description={t(isAgent ? 'coaching.agentLead' : 'coaching.lead')} />
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      {!isAgent && (
        <div className="card">
          <div className="card-head">
            <h2>{t('coaching.report')}</h2>
          </div>
          {rows.length === 0 ? (
            <p className="card-body muted">{t('coaching.noReport')}</p>
          ) : (
            <DataTable
              testId="coaching-report"
              head={<HeadCells first={t('coaching.agent')} columns={REPORT_COLUMNS} className="num" />}
            >
              {rows.map((r) => (
                <tr key={r.agentId}>
                  <td>
                    <Link to={`/coaching?agent=${r.agentId}`}>{r.agentName}</Link>
                  </td>
                  <td className="num">{cell(r.agentId, r.open, 'OPEN')}</td>
                  <td className="num">{n(r.acknowledged)}</td>
                  <td className="num">{cell(r.agentId, r.overdue, 'OVERDUE')}</td>
                  <td className="num">{cell(r.agentId, r.done, 'DONE')}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </div>
      )}
      <div className="row-wrap">
        {!isAgent && (
          <div style={{ minWidth: 220 }}>
            <ItemSelect
              label={t('coaching.agent')}
              value={agentId ?? ''}
              onValue={(agent) => go({ agent: agent || null })}
              none={t('coaching.allAgents')}
              items={rows.map((r) => ({ id: r.agentId, name: r.agentName }))}
            />
          </div>
        )}
        <div style={{ minWidth: 180 }}>
          <ItemSelect
            label={t('coaching.view')}
            value={view}
            onValue={(v) => go({ view: v as View })}
            items={VIEWS.map((v) => ({
              id: v,
              name: t(v === 'OPEN' ? 'coaching.open' : v === 'OVERDUE' ? 'coaching.overdue' : 'coaching.done'),
            }))}
          />
        </div>
      </div>
      {list.fetching && !list.data ? (
        <LoadingBlock />
      ) : items.length === 0 ? (
        <div className="card">
          <EmptyState icon="check" title={t('coaching.empty')} />
        </div>
      ) : (
        <div className="stack-sm" data-testid="coaching-list">
          {items.map((item) => (
            <div key={item.id} className="stack-sm">
              <CoachingItemCard
                item={item}
                level={2}
                canAcknowledge={isAgent}
                canComplete={roleAtLeast(role, 'ANALYST')}
                onPlay={(at) => player.play(item.call.id, at)}
                onChanged={changed}
              />
              {player.callId === item.call.id && player.element}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
