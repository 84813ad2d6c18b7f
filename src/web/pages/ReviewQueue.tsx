import { ZonedLead } from '../components/TimeZoneNote.tsx';
/**
 * The review queue (issue 10.7): analyzed calls that need a person, with why (reason badges),
 * assign-to-me and done. Newest first, "load more" pages by cursor; filters by reason, agent,
 * open/done and "mine". Analysts and above; they also set the sample share here.
 */
import { ListTable } from '../components/list-table.tsx';
import { ItemSelect } from '../components/item-select.tsx';
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { callTitle } from '../components/call-bits.tsx';
import { QaScore } from '../components/qa-badges.tsx';
import { Alert, Badge, Button, Card, EmptyState, PageHeader, SelectField, TextField } from '../components/ui.tsx';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { formatRelative, useFormat } from '../lib/format.ts';
import { graphql, readFragment, type ResultOf } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { Link, navigate } from '../lib/router.tsx';

const ReviewItemFields = graphql(`
  fragment ReviewItemFields on ReviewItem {
    reasons assignedAt doneAt
    assignedTo { id name }
    doneBy { id name }
    call { id startedAt score criticalFailed reviewedAt coverage needsReview languageMismatch customerName customerPhone fileName agent { id name } }
  }
`);

export const ReviewQueueQuery = graphql(
  `
  query ReviewQueue($filter: ReviewQueueFilter, $first: Int, $after: String) {
    reviewQueue(filter: $filter, first: $first, after: $after) { __typename ... on ReviewQueuePage { hasNextPage endCursor items { ...ReviewItemFields } } ... on Error { code message } }
    account { id reviewSamplePercent }
    agents(includeInactive: true) { id name }
  }
`,
  [ReviewItemFields],
);
const AssignReview = graphql(
  `
  mutation AssignReview($callId: ID!) {
    assignReview(callId: $callId) { __typename ... on ReviewItem { ...ReviewItemFields } ... on Error { code message } }
  }
`,
  [ReviewItemFields],
);
const CompleteReview = graphql(
  `
  mutation CompleteReview($callId: ID!, $done: Boolean) {
    completeReview(callId: $callId, done: $done) { __typename ... on ReviewItem { ...ReviewItemFields } ... on Error { code message } }
  }
`,
  [ReviewItemFields],
);
const SetSample = graphql(`
  mutation SetReviewSample($percent: Float!) {
    setReviewSamplePercent(percent: $percent) { __typename ... on Account { id reviewSamplePercent } ... on Error { code message } }
  }
`);

type Reason = 'DISPUTED' | 'NEEDS_REVIEW' | 'CRITICAL_FAIL' | 'LANGUAGE_MISMATCH' | 'LOW_CONFIDENCE' | 'SAMPLE';
const REASONS: Reason[] = [
  'DISPUTED',
  'NEEDS_REVIEW',
  'CRITICAL_FAIL',
  'LANGUAGE_MISMATCH',
  'LOW_CONFIDENCE',
  'SAMPLE',
];
const REASON_TONE: Record<Reason, 'amber' | 'red' | 'blue' | 'gray'> = {
  DISPUTED: 'red',
  NEEDS_REVIEW: 'amber',
  CRITICAL_FAIL: 'red',
  LANGUAGE_MISMATCH: 'blue',
  LOW_CONFIDENCE: 'amber',
  SAMPLE: 'gray',
};
/** The badge of a reason; a reason added on the server without a label here shows its code. */
export function ReasonBadge({ reason }: { reason: string }) {
  const { t } = useT();
  const key = `review.reason.${reason.toLowerCase()}` as MessageKey;
  const text = t(key);
  return <Badge tone={REASON_TONE[reason as Reason] ?? 'gray'}>{text === key ? reason.toLowerCase() : text}</Badge>;
}

export function ReviewQueuePage() {
  const i18n = useT();
  const fmt = useFormat();
  const { t, locale } = i18n;
  const report = useOutcomeToast();
  const [reason, setReason] = useState<Reason | ''>('');
  const [agent, setAgent] = useState('');
  const [state, setState] = useState<'OPEN' | 'DONE'>('OPEN');
  const [mine, setMine] = useState(false);
  const [after, setAfter] = useState<string | null>(null);
  const [items, setItems] = useState<ResultOf<typeof ReviewItemFields>[]>([]);
  const filter = {
    ...(reason && { reasons: [reason] }),
    ...(agent && { agentIds: [agent] }),
    state,
    assignedToMe: mine,
  };
  const [{ data, error, fetching }, refetch] = useQuery({
    query: ReviewQueueQuery,
    variables: { filter, first: 25, after },
    requestPolicy: 'cache-and-network',
  });
  const [, assign] = useMutation(AssignReview);
  const [, complete] = useMutation(CompleteReview);
  const [, setSample] = useMutation(SetSample);
  const [sample, setSampleText] = useState<string | null>(null);

  const page = data?.reviewQueue.__typename === 'ReviewQueuePage' ? data.reviewQueue : null;
  const pageError = data?.reviewQueue.__typename !== 'ReviewQueuePage' ? data?.reviewQueue : null;
  // A new filter starts again from the top; "load more" appends the next page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter's parts reset the list.
  useEffect(() => {
    setAfter(null);
    setItems([]);
  }, [reason, agent, state, mine]);
  useEffect(() => {
    if (!page) return;
    setItems((prev) => {
      const fresh = page.items.map((x) => readFragment(ReviewItemFields, x));
      if (!after) return fresh;
      const seen = new Set(prev.map((x) => x.call.id));
      return [...prev, ...fresh.filter((x) => !seen.has(x.call.id))];
    });
  }, [page, after]);

  const reload = () => {
    setAfter(null);
    refetch({ requestPolicy: 'network-only' });
  };
  const takeIt = async (callId: string) => {
    if (report(outcome(await assign({ callId }), 'assignReview'), t('review.assigned'))) reload();
  };
  const finish = async (callId: string, done: boolean) => {
    if (report(outcome(await complete({ callId, done }), 'completeReview'), done ? t('review.doneToast') : undefined))
      reload();
  };
  const saveSample = async () => {
    const percent = Number((sample ?? '').replace(',', '.'));
    if (report(outcome(await setSample({ percent }), 'setReviewSamplePercent'), t('review.sampleSaved'))) {
      setSampleText(null);
      reload();
    }
  };

  return (
    <div className="page">
      <PageHeader title={t('review.title')} description={<ZonedLead>{t('review.lead')}</ZonedLead>} />
      <div className="stack">
        {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
        {pageError && 'code' in pageError && <Alert tone="red">{describeError(i18n, pageError)}</Alert>}
        <Card>
          <div className="row" data-testid="review-filters">
            <ItemSelect
              label={t('review.reason')}
              value={reason}
              onValue={(r) => setReason(r as Reason | '')}
              none={t('review.allReasons')}
              items={REASONS.map((r) => ({ id: r, name: t(`review.reason.${r.toLowerCase()}` as MessageKey) }))}
            />
            <ItemSelect
              label={t('review.agent')}
              value={agent}
              onValue={setAgent}
              none={t('review.allAgents')}
              items={data?.agents ?? []}
            />
            <SelectField
              label={t('review.state')}
              value={state}
              onChange={(e) => setState(e.target.value as 'OPEN' | 'DONE')}
            >
              <option value="OPEN">{t('review.stateOpen')}</option>
              <option value="DONE">{t('review.stateDone')}</option>
            </SelectField>
            <label className="checkbox">
              <input type="checkbox" checked={mine} onChange={(e) => setMine(e.target.checked)} />
              <span>{t('review.onlyMine')}</span>
            </label>
          </div>
        </Card>
        <Card bodyClass="tight">
          <ListTable
            testId="review-table"
            rows={items}
            loaded={!fetching}
            columns={[
              t('review.col.call'),
              t('review.col.agent'),
              t('review.col.reasons'),
              { label: t('review.col.score'), right: true },
              t('review.col.assigned'),
              { label: t('common.actions'), right: true },
            ]}
            empty={
              <EmptyState icon="check" title={t('review.emptyTitle')}>
                {t('review.emptyBody')}
              </EmptyState>
            }
            row={(x) => (
              <tr
                key={x.call.id}
                className="clickable"
                data-testid="review-row"
                onClick={() => navigate(`/calls/${x.call.id}`)}
              >
                <td>
                  <Link to={`/calls/${x.call.id}`} className="row-link" onClick={(e) => e.stopPropagation()}>
                    {callTitle(x.call)}
                  </Link>
                  <div className="muted small">{fmt.dateTime(x.call.startedAt)}</div>
                </td>
                <td>{x.call.agent.name}</td>
                <td>
                  <span className="qa-badges" data-testid="review-reasons">
                    {x.reasons.map((r) => (
                      <ReasonBadge key={r} reason={r} />
                    ))}
                  </span>
                </td>
                <td className="right">
                  <QaScore {...x.call} needsReview={false} languageMismatch={false} />
                </td>
                <td>
                  {x.doneBy ? (
                    <span className="small">
                      {t('review.doneBy', { name: x.doneBy.name, when: formatRelative(x.doneAt, locale) })}
                    </span>
                  ) : x.assignedTo ? (
                    <span className="small">
                      {t('review.assignedTo', {
                        name: x.assignedTo.name,
                        when: formatRelative(x.assignedAt, locale),
                      })}
                    </span>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td className="right" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                  <span className="review-actions">
                    {!x.doneAt && (
                      <Button size="sm" variant="ghost" icon="user" onClick={() => takeIt(x.call.id)}>
                        {t('review.assignToMe')}
                      </Button>
                    )}
                    {x.doneAt ? (
                      <Button size="sm" variant="ghost" icon="refresh" onClick={() => finish(x.call.id, false)}>
                        {t('review.reopen')}
                      </Button>
                    ) : (
                      <Button size="sm" icon="check" onClick={() => finish(x.call.id, true)} data-testid="review-done">
                        {t('review.markDone')}
                      </Button>
                    )}
                  </span>
                </td>
              </tr>
            )}
          />
        </Card>
        {page?.hasNextPage && (
          <div>
            <Button onClick={() => setAfter(page.endCursor ?? null)} loading={fetching}>
              {t('review.more')}
            </Button>
          </div>
        )}
        <Card title={t('review.sampleTitle')} description={t('review.sampleHint')}>
          <div className="row">
            <TextField
              label={t('review.samplePercent')}
              inputMode="decimal"
              name="review-sample"
              value={sample ?? String(data?.account.reviewSamplePercent ?? '')}
              onChange={(e) => setSampleText(e.target.value)}
            />
            <Button onClick={saveSample} disabled={sample === null}>
              {t('common.save')}
            </Button>
          </div>
        </Card>
      </div>
    </div>
  );
}
