import { ZonedLead } from '../components/TimeZoneNote.tsx';
import { ListBody } from '../components/list-table.tsx';
import { ScorePill } from '../components/call-bits.tsx';
import { HeadCells } from '../components/table-head.tsx';
/** An agent user's landing page (issue 10.4): their own calls, newest first, with score and review state. */
import { useEffect } from 'react';
import { useQuery } from 'urql';
import { Alert, Badge, EmptyState, PageHeader } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { rememberCallList } from '../lib/call-nav.ts';
import { describeError } from '../lib/errors.ts';
import { useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { Link } from '../lib/router.tsx';

const MyCallsQuery = graphql(`
  query MyCalls {
    calls(first: 100, filter: { view: ANALYZED }) {
      totalCount
      edges { node { id startedAt durationSeconds score criticalFailed status reviewedAt acknowledgedAt openDisputes disputeWindowClosesAt } }
    }
  }
`);

export function MyCallsPage() {
  const i18n = useT();
  const fmt = useFormat();
  const { t } = i18n;
  const [{ data, error, fetching }] = useQuery({ query: MyCallsQuery });
  const calls = data?.calls.edges.map((e) => e.node) ?? [];
  // The call page's previous/next (N/P) walk this list.
  useEffect(() => {
    if (data) rememberCallList({ ids: data.calls.edges.map((e) => e.node.id), search: '' });
  }, [data]);
  return (
    <div className="page stack">
      <PageHeader title={t('myCalls.title')} description={<ZonedLead>{t('myCalls.lead')}</ZonedLead>} />
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      <ListBody
        loading={fetching && !data}
        empty={
          calls.length === 0 && (
            <EmptyState icon="phone" title={t('myCalls.empty')}>
              {t('myCalls.emptyBody')}
            </EmptyState>
          )
        }
      >
        <div className="card">
          <table className="table" data-testid="my-calls">
            <thead>
              <tr>
                <HeadCells columns={['myCalls.when', 'myCalls.duration', 'myCalls.score', 'myCalls.state']} />
              </tr>
            </thead>
            <tbody>
              {calls.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/calls/${c.id}`}>{fmt.dateTime(c.startedAt)}</Link>
                  </td>
                  <td className="num">{fmt.duration(c.durationSeconds)}</td>
                  <td>
                    <ScorePill score={c.score} criticalFailed={c.criticalFailed} />
                  </td>
                  <td>
                    {/* A span, not the cell, is the flex row: a flex <td> leaves the table's grid. */}
                    <span className="row-wrap">
                      {c.reviewedAt && <Badge tone="blue">{t('myCalls.reviewed')}</Badge>}
                      {c.acknowledgedAt && <Badge tone="green">{t('myCalls.acknowledged')}</Badge>}
                      {c.openDisputes > 0 && <Badge tone="amber">{t('myCalls.disputed')}</Badge>}
                      {!c.reviewedAt && !c.acknowledgedAt && c.openDisputes === 0 && (
                        <span className="muted small">
                          {c.disputeWindowClosesAt && Date.parse(c.disputeWindowClosesAt) > Date.now()
                            ? t('myCalls.toConfirm', { when: fmt.date(c.disputeWindowClosesAt) })
                            : '—'}
                        </span>
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListBody>
    </div>
  );
}
