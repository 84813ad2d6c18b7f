/**
 * Human review on the call page (issue 10.3): the automatic and reviewed result of each criterion
 * side by side, an override with a required note (analysts and above), the review history, comments
 * pinned to moments of the recording, and the call's disputes with accept / reject.
 */
import { InlineFormActions } from '../forms.tsx';
import { ReviewedBy } from './Criteria.tsx';
import { HeadCells } from '../table-head.tsx';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../../i18n/index.tsx';
import { roleAtLeast, useRole } from '../../lib/auth.tsx';
import { outcome } from '../../lib/errors.ts';
import { formatClock, formatScore, useFormat } from '../../lib/format.ts';
import { graphql, type ResultOf } from '../../lib/graphql.ts';
import { useOutcomeToast } from '../../lib/mutations.ts';
import { Badge, Button, Card, SelectField, TextArea } from '../ui.tsx';
import { useInlineForm } from '../../lib/inline-form.ts';
import { DisputeItem } from './DisputeItem.tsx';
import { type Outcome, OUTCOMES, outcomeKey, outcomeTone } from './outcomes.ts';

const ReviewQuery = graphql(`
  query CallReview($id: ID!) {
    call(id: $id) {
      id
      status
      score
      autoScore
      reviewedAt
      reviewedBy { id name }
      openDisputes
      criteria { key label result autoResult reviewed reviewNote reviewedByName reviewedAt }
      reviews { id criterionKey fromResult toResult note reviewerName scoreBefore scoreAfter createdAt }
      comments { id authorName atSeconds body createdAt }
      disputes { id criterionKey status comment openedByName openedAt reply resolvedByName resolvedAt }
    }
  }
`);

const Override = graphql(`
  mutation OverrideCriterion($callId: ID!, $key: String!, $result: CriterionOutcome!, $note: String!) {
    overrideCriterion(callId: $callId, key: $key, result: $result, note: $note) { __typename ... on Call { id score autoScore } ... on Error { code message } }
  }
`);

const AddComment = graphql(`
  mutation AddCallComment($callId: ID!, $body: String!, $atSeconds: Float) {
    addCallComment(callId: $callId, body: $body, atSeconds: $atSeconds) { __typename ... on CallComment { id } ... on Error { code message } }
  }
`);

type ReviewData = NonNullable<ResultOf<typeof ReviewQuery>['call']>;

export function ReviewPanel({
  callId,
  time,
  onSeek,
  onChanged,
}: {
  callId: string;
  /** The player's position, for "comment at this moment". */
  time: number;
  onSeek: (seconds: number) => void;
  /** The call page re-reads the score after a change. */
  onChanged: () => void;
}) {
  const { t, locale } = useT();
  const fmt = useFormat();
  const role = useRole();
  const canReview = roleAtLeast(role, 'ANALYST');
  const [{ data }, refetch] = useQuery({ query: ReviewQuery, variables: { id: callId } });
  const call = data?.call;
  if (call?.status !== 'ANALYZED' || !call.criteria) return null;
  const changed = () => {
    refetch({ requestPolicy: 'network-only' });
    onChanged();
  };
  return (
    <Card
      title={t('review.panelTitle')}
      description={
        call.reviewedAt
          ? t('review.reviewedBy', {
              name: call.reviewedBy?.name ?? '—',
              when: fmt.dateTime(call.reviewedAt),
              auto: formatScore(call.autoScore, locale),
              score: formatScore(call.score, locale),
            })
          : t('review.notReviewed')
      }
    >
      <div className="stack" data-testid="review-panel">
        <table className="table">
          <thead>
            <tr>
              <HeadCells columns={['review.criterion', 'review.automatic', 'review.reviewed']} />
            </tr>
          </thead>
          <tbody>
            {call.criteria.map((c) => (
              <CriterionRow key={c.key} callId={call.id} c={c} canReview={canReview} onChanged={changed} />
            ))}
          </tbody>
        </table>
        {call.disputes.length > 0 && (
          <div className="stack-sm">
            <h3 className="small">{t('review.disputes')}</h3>
            {call.disputes.map((d) => (
              <DisputeItem
                key={d.id}
                dispute={d}
                label={call.criteria?.find((c) => c.key === d.criterionKey)?.label ?? d.criterionKey}
                canResolve={canReview}
                onChanged={changed}
              />
            ))}
          </div>
        )}
        <Comments call={call} time={time} onSeek={onSeek} canComment={canReview} onChanged={changed} />
        {call.reviews.length > 0 && (
          <details>
            <summary>{t('review.history', { n: call.reviews.length })}</summary>
            <ol className="stack-sm small">
              {call.reviews.map((r) => (
                <li key={r.id}>
                  {t('review.historyLine', {
                    when: fmt.dateTime(r.createdAt),
                    who: r.reviewerName,
                    key: call.criteria?.find((c) => c.key === r.criterionKey)?.label ?? r.criterionKey,
                    from: t(outcomeKey(r.fromResult)),
                    to: t(outcomeKey(r.toResult)),
                    before: formatScore(r.scoreBefore, locale),
                    after: formatScore(r.scoreAfter, locale),
                  })}{' '}
                  <q>{r.note}</q>
                </li>
              ))}
            </ol>
          </details>
        )}
      </div>
    </Card>
  );
}

function CriterionRow({
  callId,
  c,
  canReview,
  onChanged,
}: {
  callId: string;
  c: NonNullable<ReviewData['criteria']>[number];
  canReview: boolean;
  onChanged: () => void;
}) {
  const { t } = useT();
  const report = useOutcomeToast();
  const form = useInlineForm();
  const [result, setResult] = useState<Outcome>(c.result);
  const [note, setNote] = useState('');
  const [{ fetching }, override] = useMutation(Override);
  const save = async () => {
    const ok = report(
      outcome(await override({ callId, key: c.key, result, note: note.trim() }), 'overrideCriterion'),
      t('review.saved'),
    );
    if (ok) {
      form.done();
      setNote('');
      onChanged();
    }
  };
  // The reviewer's note and the form take the table's whole width on a row of their own: in the
  // Criterion column they were squeezed to ~100 px, and the form pushed the table past its card.
  return (
    <>
      <tr ref={form.rowRef} tabIndex={-1} data-testid="review-row" data-key={c.key}>
        <td>{c.label}</td>
        <td>
          <Badge tone={outcomeTone(c.autoResult)}>{t(outcomeKey(c.autoResult))}</Badge>
        </td>
        <td>
          <div className="row">
            {c.reviewed ? (
              <Badge tone={outcomeTone(c.result)}>{t(outcomeKey(c.result))}</Badge>
            ) : (
              <span className="muted">—</span>
            )}
            {canReview && !form.open && (
              <Button
                ref={form.opener}
                size="sm"
                variant="ghost"
                onClick={() => {
                  setResult(c.result);
                  form.show();
                }}
                aria-label={t('review.overrideOf', { name: c.label })}
              >
                {t('review.override')}
              </Button>
            )}
          </div>
        </td>
      </tr>
      {c.reviewed && (
        <tr className="sub-row" data-testid="review-note">
          <td colSpan={3}>
            <ReviewedBy c={c} lineClass="small muted" />
          </td>
        </tr>
      )}
      {form.open && (
        <tr className="sub-row">
          <td colSpan={3}>
            <div className="stack-sm" {...form.formProps} data-testid="override-form">
              <SelectField
                label={t('review.newResult')}
                value={result}
                onChange={(e) => setResult(e.target.value as Outcome)}
              >
                {OUTCOMES.map((o) => (
                  <option key={o} value={o}>
                    {t(outcomeKey(o))}
                  </option>
                ))}
              </SelectField>
              <TextArea
                label={t('review.note')}
                value={note}
                onChange={(e) => setNote(e.target.value)}
                hint={t('review.noteHint')}
                required
              />
              <InlineFormActions onCancel={form.cancel}>
                <Button variant="primary" size="sm" onClick={() => void save()} disabled={!note.trim() || fetching}>
                  {t('review.save')}
                </Button>
              </InlineFormActions>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

function Comments({
  call,
  time,
  onSeek,
  canComment,
  onChanged,
}: {
  call: ReviewData;
  time: number;
  onSeek: (s: number) => void;
  canComment: boolean;
  onChanged: () => void;
}) {
  const { t } = useT();
  const fmt = useFormat();
  const report = useOutcomeToast();
  const [body, setBody] = useState('');
  const [pin, setPin] = useState(true);
  const [{ fetching }, add] = useMutation(AddComment);
  const save = async () => {
    const ok = report(
      outcome(
        await add({ callId: call.id, body: body.trim(), atSeconds: pin ? Math.floor(time * 10) / 10 : null }),
        'addCallComment',
      ),
      t('review.commentSaved'),
    );
    if (ok) {
      setBody('');
      onChanged();
    }
  };
  const sorted = [...call.comments].sort((a, b) => (a.atSeconds ?? -1) - (b.atSeconds ?? -1));
  return (
    <div className="stack-sm">
      <h3 className="small">{t('review.comments')}</h3>
      {sorted.length === 0 && <p className="muted small">{t('review.noComments')}</p>}
      <ul className="stack-sm small" data-testid="call-comments">
        {sorted.map((c) => (
          <li key={c.id}>
            {c.atSeconds != null && (
              <button type="button" className="link num" onClick={() => onSeek(c.atSeconds!)}>
                {formatClock(c.atSeconds)}
              </button>
            )}{' '}
            <strong>{c.authorName}</strong> · <span className="muted">{fmt.dateTime(c.createdAt)}</span>
            <div>{c.body}</div>
          </li>
        ))}
      </ul>
      {canComment && (
        <div className="stack-sm">
          <TextArea label={t('review.addComment')} value={body} onChange={(e) => setBody(e.target.value)} />
          <label className="row small">
            <input type="checkbox" checked={pin} onChange={(e) => setPin(e.target.checked)} />
            {t('review.pinAt', { at: formatClock(time) })}
          </label>
          <div>
            <Button size="sm" onClick={() => void save()} disabled={!body.trim() || fetching}>
              {t('review.comment')}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
