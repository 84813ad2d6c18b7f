import { ZonedLead } from '../components/TimeZoneNote.tsx';
/**
 * The dispute queue (issue 10.4): analysts see every dispute of the account, oldest first, and
 * accept or reject them with a reply; an agent user sees their own disputes and the answers.
 */
import { ListBody } from '../components/list-table.tsx';
import { ItemSelect } from '../components/item-select.tsx';
import { useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { ScorePill } from '../components/call-bits.tsx';
import { CriterionItem } from '../components/review/Criteria.tsx';
import { DisputeItem } from '../components/review/DisputeItem.tsx';
import { useInlinePlayer } from '../components/inline-player.tsx';
import { Alert, EmptyState, PageHeader } from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError } from '../lib/errors.ts';
import { formatScore, useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { Link } from '../lib/router.tsx';

const DisputesQuery = graphql(`
  query Disputes($status: DisputeStatus) {
    disputes(status: $status) {
      id criterionKey status comment openedByName openedAt reply resolvedByName resolvedAt
      call { id startedAt score autoScore reviewedAt criticalFailed agent { id name } criteria { key label } }
    }
  }
`);

// Each dispute reads its call's criteria on its own: evidence of every criterion of every listed call
// in one query multiplies past the API's complexity limit (lists count ten times each).
const DisputedCriterionQuery = graphql(`
  query DisputedCriterion($id: ID!) {
    call(id: $id) {
      id
      criteria {
        key label kind result points maxPoints critical lowConfidence reason reasonCode reasonParams
        evidence { quote start }
        autoResult reviewed reviewNote reviewedByName reviewedAt
      }
    }
  }
`);

/** The disputed criterion as the call page shows it; its quotes play on this page. */
function DisputedCriterion({
  callId,
  criterionKey,
  onSeek,
}: {
  callId: string;
  criterionKey: string;
  onSeek: (seconds: number) => void;
}) {
  const [{ data }] = useQuery({
    query: DisputedCriterionQuery,
    variables: { id: callId },
    requestPolicy: 'cache-and-network',
  });
  const criterion = data?.call?.criteria?.find((c) => c.key === criterionKey);
  if (!criterion) return null;
  return (
    <ul className="criteria dispute-evidence" data-testid="dispute-evidence">
      <CriterionItem c={criterion} onSeek={onSeek} />
    </ul>
  );
}

type Filter = 'OPEN' | 'ACCEPTED' | 'REJECTED' | 'ALL';

export function DisputesPage() {
  const i18n = useT();
  const fmt = useFormat();
  const { t, locale } = i18n;
  const role = useRole();
  const [filter, setFilter] = useState<Filter>('OPEN');
  const [{ data, error, fetching }, refetch] = useQuery({
    query: DisputesQuery,
    variables: { status: filter === 'ALL' ? null : filter },
  });
  const list = data?.disputes ?? [];
  const player = useInlinePlayer();
  // An answered dispute leaves the "Open" list: the focus moves on to the next one (or the heading),
  // not to the page body.
  const resolvedAt = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list has been read again.
  useEffect(() => {
    const at = resolvedAt.current;
    if (at == null || fetching) return;
    resolvedAt.current = null;
    // Still listed (the "All" view): the dispute itself kept the focus.
    if (document.activeElement?.closest('[data-testid="dispute"]')) return;
    const items = document.querySelectorAll<HTMLElement>('[data-testid="dispute-queue"] [data-testid="dispute"]');
    (items[Math.min(at, items.length - 1)] ?? document.querySelector<HTMLElement>('main h1'))?.focus();
  }, [data, fetching]);
  return (
    <div className="page stack">
      <PageHeader
        title={t('disputes.title')}
        description={<ZonedLead>{t(role === 'AGENT' ? 'disputes.leadAgent' : 'disputes.lead')}</ZonedLead>}
      />
      <div style={{ maxWidth: 240 }}>
        <ItemSelect
          label={t('disputes.filter')}
          value={filter}
          onValue={(f) => setFilter(f as Filter)}
          items={(['OPEN', 'ACCEPTED', 'REJECTED', 'ALL'] as const).map((f) => ({
            id: f,
            name: t(`disputes.status.${f}` as MessageKey),
          }))}
        />
      </div>
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      <ListBody
        loading={fetching && !data}
        empty={
          list.length === 0 && (
            <EmptyState icon="check" title={t('disputes.empty')}>
              {t('disputes.emptyBody')}
            </EmptyState>
          )
        }
      >
        <div className="stack-sm" data-testid="dispute-queue">
          {list.map((d, i) => {
            const criterion = d.call.criteria?.find((c) => c.key === d.criterionKey);
            return (
              <div key={d.id} className="card stack-sm">
                <div className="card-body stack-sm">
                  <div className="row-wrap">
                    <Link to={`/calls/${d.call.id}`}>
                      {t('disputes.callOf', { agent: d.call.agent.name, when: fmt.dateTime(d.call.startedAt) })}
                    </Link>
                    <span className="spacer" />
                    <span className="row nowrap small" data-testid="dispute-scores">
                      {t('disputes.scoreNow')} <ScorePill score={d.call.score} criticalFailed={d.call.criticalFailed} />
                      {d.call.reviewedAt && (
                        <span className="muted">
                          {t('disputes.scoreAuto', { score: formatScore(d.call.autoScore, locale) })}
                        </span>
                      )}
                    </span>
                  </div>
                  <DisputeItem
                    dispute={d}
                    label={criterion?.label ?? d.criterionKey}
                    canResolve={roleAtLeast(role, 'ANALYST')}
                    onResolved={() => {
                      resolvedAt.current = i;
                    }}
                    onChanged={() => refetch({ requestPolicy: 'network-only' })}
                  >
                    <DisputedCriterion
                      callId={d.call.id}
                      criterionKey={d.criterionKey}
                      onSeek={(at) => player.play(d.call.id, at)}
                    />
                    {player.callId === d.call.id && player.element}
                  </DisputeItem>
                </div>
              </div>
            );
          })}
        </div>
      </ListBody>
    </div>
  );
}
