import { TimeZoneNote } from '../components/TimeZoneNote.tsx';
/**
 * The call page of an agent user (issue 10.4): the recording, the score with each criterion's
 * automatic and reviewed result, acknowledge, dispute a criterion with a comment within the
 * account's window, the answers to their disputes, and reviewers' comments.
 */
import { InlineFormActions } from '../components/forms.tsx';
import { CallPlayer } from '../components/call-player.tsx';
import { useMemo, useState } from 'react';
import { useCallAudio } from '../lib/call-audio.ts';
import { ScorePill } from '../components/call-bits.tsx';
import { useMutation, useQuery } from 'urql';
import { DisputeItem } from '../components/review/DisputeItem.tsx';
import { CriterionItem, type CriterionView } from '../components/review/Criteria.tsx';
import { Transcript } from '../components/transcript.tsx';
import { useInlineForm } from '../lib/inline-form.ts';
import { Alert, Badge, Button, Card, LoadingBlock, PageHeader, TextArea } from '../components/ui.tsx';
import { CallGone } from '../components/call-gone.tsx';
import { useT } from '../i18n/index.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { formatClock, formatScore, useFormat } from '../lib/format.ts';
import { neighbours, recallCallList } from '../lib/call-nav.ts';
import { graphql } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { useDocumentTitle } from '../lib/page-title.ts';
import { Link } from '../lib/router.tsx';
import { CallCoaching } from '../components/coaching/CallCoaching.tsx';

const AgentCallQuery = graphql(`
  query AgentCall($id: ID!) {
    call(id: $id) {
      id startedAt status score criticalFailed autoScore reviewedAt acknowledgedAt disputeWindowClosesAt
      criteria {
        key label kind result points maxPoints critical lowConfidence reason reasonCode reasonParams evidence { quote start end speaker }
        autoResult reviewed reviewNote reviewedByName reviewedAt
      }
      disputes { id criterionKey status comment openedByName openedAt reply resolvedByName resolvedAt }
      comments { id authorName atSeconds body createdAt }
      durationSeconds
      transcript { start end speaker text guessed uncertainWords }
    }
  }
`);

const Acknowledge = graphql(`
  mutation AcknowledgeCall($id: ID!) {
    acknowledgeCall(id: $id) { __typename ... on Call { id acknowledgedAt } ... on Error { code message } }
  }
`);

const Dispute = graphql(`
  mutation DisputeCriterion($callId: ID!, $key: String!, $comment: String!) {
    disputeCriterion(callId: $callId, key: $key, comment: $comment) { __typename ... on Dispute { id status } ... on Error { code message } }
  }
`);

export function AgentCallPage({ id }: { id: string }) {
  const i18n = useT();
  const fmt = useFormat();
  const { t, locale } = i18n;
  const report = useOutcomeToast();
  const [{ data, error, fetching }, refetch] = useQuery({ query: AgentCallQuery, variables: { id } });
  const [{ fetching: acking }, acknowledge] = useMutation(Acknowledge);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  // The tab names the call, as the managers' call page does, rather than the route's "Call".
  const startedAt = data?.call?.startedAt;
  useDocumentTitle(startedAt ? t('agentCall.title', { when: fmt.dateTime(startedAt) }) : null);
  // The same sticky player as the managers' call page: speed, skips, shortcuts (Space, J/L, [ ], ?).
  const audio = useCallAudio(id);
  const { time, playing, audioDuration, seek } = audio;
  // Previous/next (P/N) walk My calls, which remembers its ids as the managers' list does.
  const nav = useMemo(() => {
    const n = neighbours(recallCallList()?.ids ?? [], id);
    return { prev: n.prev && `/calls/${n.prev}`, next: n.next && `/calls/${n.next}` };
  }, [id]);

  if (fetching && !data) return <LoadingBlock />;
  if (error && !data) return <Alert tone="red">{describeError(i18n, error)}</Alert>;
  const call = data?.call;
  if (!call) return <CallGone id={id} />;
  const open = !!call.disputeWindowClosesAt && Date.parse(call.disputeWindowClosesAt) > Date.now();
  return (
    <div className="page stack">
      <PageHeader
        title={t('agentCall.title', { when: fmt.dateTime(call.startedAt) })}
        description={
          <>
            {call.disputeWindowClosesAt
              ? `${t(open ? 'agentCall.windowOpen' : 'agentCall.windowClosed', {
                  when: fmt.dateTime(call.disputeWindowClosesAt),
                })} `
              : null}
            <TimeZoneNote />
          </>
        }
        back={<Link to="/calls">{t('callDetail.backToCalls')}</Link>}
        actions={
          call.acknowledgedAt ? (
            <Badge tone="green">{t('agentCall.acknowledgedAt', { when: fmt.dateTime(call.acknowledgedAt) })}</Badge>
          ) : (
            open && (
              <Button
                variant="primary"
                disabled={acking}
                onClick={async () => {
                  if (
                    report(outcome(await acknowledge({ id: call.id }), 'acknowledgeCall'), t('agentCall.acknowledged'))
                  )
                    reload();
                }}
              >
                {t('agentCall.acknowledge')}
              </Button>
            )
          )
        }
      />
      <CallPlayer
        call={call}
        audio={audio}
        nav={nav}
        duration={call.durationSeconds ?? audioDuration ?? 0}
        segments={call.transcript ?? []}
      />
      <Card
        title={t('agentCall.score', { score: formatScore(call.score, locale) })}
        // A critical fail says so here too (the score is 0 for that reason), as on the managers' page.
        actions={call.criticalFailed ? <ScorePill score={call.score} criticalFailed /> : undefined}
        description={
          call.reviewedAt ? t('agentCall.autoScore', { score: formatScore(call.autoScore, locale) }) : undefined
        }
        bodyClass="tight"
      >
        <ul className="criteria" data-testid="agent-criteria">
          {(call.criteria ?? []).map((c) => (
            <AgentCriterion
              key={c.key}
              callId={call.id}
              c={c}
              onSeek={seek}
              // Only a result that cost points can be contested: a pass has nothing to dispute.
              canDispute={
                open &&
                c.result === 'FAILED' &&
                !call.disputes.some((d) => d.criterionKey === c.key && d.status === 'OPEN')
              }
              onSent={reload}
            />
          ))}
        </ul>
      </Card>
      {call.disputes.length > 0 && (
        <Card title={t('review.disputes')}>
          <div className="stack-sm">
            {call.disputes.map((d) => (
              <DisputeItem
                key={d.id}
                dispute={d}
                label={call.criteria?.find((c) => c.key === d.criterionKey)?.label ?? d.criterionKey}
                canResolve={false}
                onChanged={reload}
              />
            ))}
          </div>
        </Card>
      )}
      <CallCoaching callId={call.id} time={time} onSeek={seek} />
      {call.comments.length > 0 && (
        <Card title={t('review.comments')}>
          <ul className="stack-sm small">
            {call.comments.map((c) => (
              <li key={c.id}>
                {c.atSeconds != null && (
                  <>
                    <button type="button" className="link num" onClick={() => seek(c.atSeconds!)}>
                      {formatClock(c.atSeconds)}
                    </button>{' '}
                  </>
                )}
                <strong>{c.authorName}</strong>: {c.body}
              </li>
            ))}
          </ul>
        </Card>
      )}
      {call.transcript && (
        <Transcript segments={call.transcript} time={time} playing={playing} onSeek={seek} status={call.status} />
      )}
    </div>
  );
}

/** One criterion with its evidence, and Dispute (a failed result, the window open) as an inline form. */
function AgentCriterion({
  callId,
  c,
  onSeek,
  canDispute,
  onSent,
}: {
  callId: string;
  c: CriterionView;
  onSeek: (seconds: number) => void;
  canDispute: boolean;
  onSent: () => void;
}) {
  const { t } = useT();
  const report = useOutcomeToast();
  const form = useInlineForm();
  const [comment, setComment] = useState('');
  const [{ fetching }, dispute] = useMutation(Dispute);
  const send = async () => {
    const ok = report(
      outcome(await dispute({ callId, key: c.key, comment: comment.trim() }), 'disputeCriterion'),
      t('agentCall.disputeSent'),
    );
    if (ok) {
      setComment('');
      // Disputed, the criterion has no Dispute button any more: the focus goes back to its row.
      form.done('row');
      onSent();
    }
  };
  return (
    <CriterionItem c={c} onSeek={onSeek} rowRef={form.rowRef}>
      {canDispute && !form.open && (
        <div className="criterion-actions">
          <Button
            ref={form.opener}
            size="sm"
            variant="ghost"
            onClick={form.show}
            aria-label={t('agentCall.disputeOf', { name: c.label })}
          >
            {t('agentCall.dispute')}
          </Button>
        </div>
      )}
      {form.open && (
        <div className="stack-sm criterion-actions" {...form.formProps} data-testid="dispute-form">
          <TextArea
            label={t('agentCall.disputeComment')}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
          <InlineFormActions onCancel={form.cancel}>
            <Button size="sm" variant="primary" disabled={!comment.trim() || fetching} onClick={() => void send()}>
              {t('agentCall.sendDispute')}
            </Button>
          </InlineFormActions>
        </div>
      )}
    </CriterionItem>
  );
}
