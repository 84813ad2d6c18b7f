/** One dispute: the agent's comment, its state and times, the analyst's reply, and accept / reject. */
import { InlineFormActions } from '../forms.tsx';
import { type ReactNode, useState } from 'react';
import { useMutation } from 'urql';
import { useT, type MessageKey } from '../../i18n/index.tsx';
import { outcome } from '../../lib/errors.ts';
import { useFormat } from '../../lib/format.ts';
import { useInlineForm } from '../../lib/inline-form.ts';
import { graphql } from '../../lib/graphql.ts';
import { useOutcomeToast } from '../../lib/mutations.ts';
import { Badge, Button, TextArea } from '../ui.tsx';

const Resolve = graphql(`
  mutation ResolveDispute($id: ID!, $accept: Boolean!, $reply: String!) {
    resolveDispute(id: $id, accept: $accept, reply: $reply) { __typename ... on Dispute { id status } ... on Error { code message } }
  }
`);

export interface DisputeView {
  id: string;
  status: 'OPEN' | 'ACCEPTED' | 'REJECTED';
  comment: string;
  openedByName: string | null;
  openedAt: string;
  reply: string | null;
  resolvedByName: string | null;
  resolvedAt: string | null;
}

const TONE = { OPEN: 'amber', ACCEPTED: 'green', REJECTED: 'red' } as const;

export function DisputeItem({
  dispute: d,
  label,
  canResolve,
  onChanged,
  onResolved,
  children,
}: {
  dispute: DisputeView;
  label: string;
  canResolve: boolean;
  onChanged: () => void;
  /** Called once an answer was saved, before the list is read again (the queue moves the focus on). */
  onResolved?: () => void;
  /** Between the dispute and the answer form: the disputed criterion's evidence (the Disputes page). */
  children?: ReactNode;
}) {
  const { t } = useT();
  const fmt = useFormat();
  const report = useOutcomeToast();
  const form = useInlineForm();
  const [reply, setReply] = useState('');
  const [{ fetching }, resolve] = useMutation(Resolve);
  const answer = async (accept: boolean) => {
    const ok = report(
      outcome(await resolve({ id: d.id, accept, reply: reply.trim() }), 'resolveDispute'),
      t(accept ? 'disputes.accepted' : 'disputes.rejected'),
    );
    if (ok) {
      setReply('');
      // Answered, the dispute has no Answer button any more: the focus goes back to the dispute itself.
      form.done('row');
      onResolved?.();
      onChanged();
    }
  };
  return (
    <div
      className="card-inset stack-sm small"
      data-testid="dispute"
      data-dispute-id={d.id}
      ref={form.rowRef}
      tabIndex={-1}
    >
      <div className="row">
        <strong>{label}</strong>
        <Badge tone={TONE[d.status]}>{t(`disputes.state.${d.status}` as MessageKey)}</Badge>
      </div>
      <div>
        {t('disputes.openedBy', { name: d.openedByName ?? '—', when: fmt.dateTime(d.openedAt) })} <q>{d.comment}</q>
      </div>
      {d.reply && (
        <div>
          {t('disputes.answeredBy', { name: d.resolvedByName ?? '—', when: fmt.dateTime(d.resolvedAt) })}{' '}
          <q>{d.reply}</q>
        </div>
      )}
      {children}
      {canResolve &&
        d.status === 'OPEN' &&
        (form.open ? (
          <div className="stack-sm" {...form.formProps} data-testid="answer-form">
            <TextArea label={t('disputes.reply')} value={reply} onChange={(e) => setReply(e.target.value)} />
            <InlineFormActions onCancel={form.cancel}>
              <Button
                size="sm"
                variant="primary"
                disabled={!reply.trim() || fetching}
                onClick={() => void answer(true)}
              >
                {t('disputes.accept')}
              </Button>
              <Button size="sm" disabled={!reply.trim() || fetching} onClick={() => void answer(false)}>
                {t('disputes.reject')}
              </Button>
            </InlineFormActions>
          </div>
        ) : (
          <div>
            <Button
              ref={form.opener}
              size="sm"
              onClick={form.show}
              aria-label={t('disputes.answerOf', { name: label })}
              data-testid="answer-dispute"
            >
              {t('disputes.answer')}
            </Button>
          </div>
        ))}
    </div>
  );
}
