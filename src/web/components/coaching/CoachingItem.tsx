/**
 * One coaching item as the agent and the manager see it (issue 31.3): what to improve, the criteria
 * it came from, the moments (each plays from its moment), the due day and the item's history; the
 * agent acknowledges it, a manager marks it done with a note.
 */
import { useState } from 'react';
import { useMutation } from 'urql';
import { useT, type MessageKey } from '../../i18n/index.tsx';
import { outcome } from '../../lib/errors.ts';
import { formatClock, useFormat } from '../../lib/format.ts';
import { graphql } from '../../lib/graphql.ts';
import { useFormMutation, useOutcomeToast } from '../../lib/mutations.ts';
import { Link } from '../../lib/router.tsx';
import { Alert, Badge, Button, TextArea } from '../ui.tsx';

export interface CoachingItemData {
  id: string;
  status: 'OPEN' | 'ACKNOWLEDGED' | 'DONE';
  overdue: boolean;
  improve: string;
  moments: number[];
  dueOn: string | null;
  assignedByName: string | null;
  assignedAt: string;
  acknowledgedAt: string | null;
  completedAt: string | null;
  completedByName: string | null;
  completionNote: string | null;
  criteria: { key: string; label: string; result: 'PASSED' | 'FAILED' | 'NA' | null }[];
  agent: { id: string; name: string };
  call: { id: string; startedAt: string };
}

const AcknowledgeCoaching = graphql(`
  mutation AcknowledgeCoaching($id: ID!) {
    acknowledgeCoaching(id: $id) { __typename ... on CoachingItem { id status acknowledgedAt } ... on Error { code message } }
  }
`);

const CompleteCoaching = graphql(`
  mutation CompleteCoaching($id: ID!, $note: String!) {
    completeCoaching(id: $id, note: $note) { __typename ... on CoachingItem { id status completedAt completedByName completionNote overdue } ... on Error { code message } }
  }
`);

const TONE = { OPEN: 'amber', ACKNOWLEDGED: 'blue', DONE: 'green' } as const;

export function CoachingItemCard({
  item,
  canAcknowledge,
  canComplete,
  onPlay,
  onChanged,
  level = 3,
}: {
  item: CoachingItemData;
  canAcknowledge: boolean;
  canComplete: boolean;
  /** Plays the item's call from a moment (seconds). */
  onPlay: (seconds: number) => void;
  onChanged: () => void;
  /** The item's heading level: 2 on the coaching page, 3 inside the call page's card. */
  level?: 2 | 3;
}) {
  const { t } = useT();
  const Heading = level === 2 ? 'h2' : 'h3';
  const fmt = useFormat();
  const report = useOutcomeToast();
  const [, acknowledge] = useMutation(AcknowledgeCoaching);
  const [completeState, complete] = useMutation(CompleteCoaching);
  const [closing, setClosing] = useState(false);
  const [note, setNote] = useState('');
  const form = useFormMutation(
    async () => outcome(await complete({ id: item.id, note }), 'completeCoaching'),
    () => {
      setClosing(false);
      onChanged();
    },
  );
  const day = (d: string) => fmt.date(`${d}T12:00:00Z`);
  return (
    <article className="card" data-testid="coaching-item" aria-labelledby={`coach-${item.id}`}>
      <div className="card-body stack-sm">
        <div className="row-wrap">
          <Heading id={`coach-${item.id}`} className="coaching-what">
            {item.improve}
          </Heading>
          <span className="spacer" />
          <Badge tone={TONE[item.status]}>
            <span data-testid="coaching-status">{t(`coaching.status.${item.status}` as MessageKey)}</span>
          </Badge>
          {item.overdue && <Badge tone="red">{t('coaching.isOverdue')}</Badge>}
        </div>
        <div className="row-wrap small">
          <span>{item.agent.name}</span>
          <span className="muted">·</span>
          <Link to={`/calls/${item.call.id}`}>{t('coaching.openCall')}</Link>
          <span className="muted">·</span>
          <span>{item.dueOn ? t('coaching.dueOn', { day: day(item.dueOn) }) : t('coaching.noDue')}</span>
        </div>
        <div className="row-wrap small">
          <span className="muted">{t('coaching.criteria')}:</span>
          {item.criteria.map((c) => (
            <span key={c.key}>
              {c.label}
              {c.result && <span className="muted"> ({t(`coaching.result.${c.result}` as MessageKey)})</span>}
            </span>
          ))}
        </div>
        {item.moments.length > 0 && (
          <div className="row-wrap small" data-testid="coaching-moments">
            <span className="muted">{t('coaching.moments')}:</span>
            {item.moments.map((m) => (
              <button
                key={m}
                type="button"
                className="btn btn-sm"
                onClick={() => onPlay(m)}
                aria-label={t('coaching.playFrom', { time: formatClock(m) })}
              >
                ▶ <span className="num">{formatClock(m)}</span>
              </button>
            ))}
          </div>
        )}
        <p className="small muted">
          {t('coaching.assignedBy', { name: item.assignedByName ?? '—', when: fmt.dateTime(item.assignedAt) })}
          {item.acknowledgedAt && <> · {t('coaching.acknowledgedOn', { when: fmt.dateTime(item.acknowledgedAt) })}</>}
        </p>
        {item.status === 'DONE' && (
          <Alert
            tone="green"
            title={t('coaching.completedBy', {
              name: item.completedByName ?? '—',
              when: fmt.dateTime(item.completedAt!),
            })}
          >
            <span data-testid="coaching-note">{item.completionNote}</span>
          </Alert>
        )}
        <div className="row-wrap">
          {canAcknowledge && item.status === 'OPEN' && (
            <Button
              variant="primary"
              onClick={async () => {
                if (
                  report(
                    outcome(await acknowledge({ id: item.id }), 'acknowledgeCoaching'),
                    t('coaching.acknowledgedToast'),
                  )
                )
                  onChanged();
              }}
            >
              {t('coaching.acknowledge')}
            </Button>
          )}
          {canComplete && item.status !== 'DONE' && !closing && (
            <Button onClick={() => setClosing(true)}>{t('coaching.complete')}</Button>
          )}
        </div>
        {closing && (
          <form className="stack-sm" onSubmit={form.submit}>
            {form.error && <Alert tone="red">{form.error}</Alert>}
            <TextArea
              label={t('coaching.completeNote')}
              hint={t('coaching.completeNoteHint')}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              rows={2}
              required
              autoFocus
            />
            <div className="row">
              <Button onClick={() => setClosing(false)}>{t('common.cancel')}</Button>
              <Button type="submit" variant="primary" loading={completeState.fetching} disabled={!note.trim()}>
                {t('coaching.complete')}
              </Button>
            </div>
          </form>
        )}
      </div>
    </article>
  );
}
