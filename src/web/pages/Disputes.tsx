import { TimeZoneNote } from '../components/TimeZoneNote.tsx';
/**
 * The dispute queue (issue 10.4): analysts see every dispute of the account, oldest first, and
 * accept or reject them with a reply; an agent user sees their own disputes and the answers.
 */
import { useState } from 'react';
import { useQuery } from 'urql';
import { DisputeItem } from '../components/review/DisputeItem.tsx';
import { Alert, EmptyState, LoadingBlock, PageHeader, SelectField } from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError } from '../lib/errors.ts';
import { useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { Link } from '../lib/router.tsx';

const DisputesQuery = graphql(`
  query Disputes($status: DisputeStatus) {
    disputes(status: $status) {
      id criterionKey status comment openedByName openedAt reply resolvedByName resolvedAt
      call { id startedAt agent { id name } criteria { key label } }
    }
  }
`);

type Filter = 'OPEN' | 'ACCEPTED' | 'REJECTED' | 'ALL';

export function DisputesPage() {
  const i18n = useT();
  const fmt = useFormat();
  const { t } = i18n;
  const role = useRole();
  const [filter, setFilter] = useState<Filter>('OPEN');
  const [{ data, error, fetching }, refetch] = useQuery({
    query: DisputesQuery,
    variables: { status: filter === 'ALL' ? null : filter },
  });
  const list = data?.disputes ?? [];
  return (
    <div className="page stack">
      <PageHeader
        title={t('disputes.title')}
        description={
          <>
            {t(role === 'AGENT' ? 'disputes.leadAgent' : 'disputes.lead')} <TimeZoneNote />
          </>
        }
      />
      <div style={{ maxWidth: 240 }}>
        <SelectField label={t('disputes.filter')} value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
          {(['OPEN', 'ACCEPTED', 'REJECTED', 'ALL'] as const).map((f) => (
            <option key={f} value={f}>
              {t(`disputes.status.${f}` as MessageKey)}
            </option>
          ))}
        </SelectField>
      </div>
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      {fetching && !data ? (
        <LoadingBlock />
      ) : list.length === 0 ? (
        <div className="card">
          <EmptyState icon="check" title={t('disputes.empty')}>
            {t('disputes.emptyBody')}
          </EmptyState>
        </div>
      ) : (
        <div className="stack-sm" data-testid="dispute-queue">
          {list.map((d) => (
            <div key={d.id} className="card stack-sm">
              <div className="card-body stack-sm">
                <Link to={`/calls/${d.call.id}`}>
                  {t('disputes.callOf', { agent: d.call.agent.name, when: fmt.dateTime(d.call.startedAt) })}
                </Link>
                <DisputeItem
                  dispute={d}
                  label={d.call.criteria?.find((c) => c.key === d.criterionKey)?.label ?? d.criterionKey}
                  canResolve={roleAtLeast(role, 'ANALYST')}
                  onChanged={() => refetch({ requestPolicy: 'network-only' })}
                />
              </div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
