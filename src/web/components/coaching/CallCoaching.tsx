/**
 * Coaching on the call page (issue 31.3): the items made from this call and, for analysts and
 * above, "Assign coaching": the call's criteria (the failed ones chosen first), what to improve,
 * the moments (from the chosen criteria's evidence, or the player's current time) and a due day.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../../i18n/index.tsx';
import { roleAtLeast, useRole } from '../../lib/auth.tsx';
import { outcome } from '../../lib/errors.ts';
import { formatClock } from '../../lib/format.ts';
import { graphql } from '../../lib/graphql.ts';
import { useFormMutation } from '../../lib/mutations.ts';
import { FormDialog } from '../forms.tsx';
import { Button, Card, Checkbox, TextArea, TextField, useToast } from '../ui.tsx';
import { CoachingItemCard, type CoachingItemData } from './CoachingItem.tsx';
import { parseMoments } from './moments.ts';

const CallCoachingQuery = graphql(`
  query CallCoaching($callId: ID!) {
    call(id: $callId) { id status agent { id name } criteria { key label result evidence { start } } }
    coachingItems(callId: $callId) {
      id status overdue improve moments dueOn assignedByName assignedAt acknowledgedAt completedAt completedByName
      completionNote criteria { key label result } agent { id name } call { id startedAt }
    }
  }
`);

const AssignCoaching = graphql(`
  mutation AssignCoaching($callId: ID!, $keys: [String!]!, $improve: String!, $moments: [Float!], $dueOn: String) {
    assignCoaching(callId: $callId, criterionKeys: $keys, improve: $improve, moments: $moments, dueOn: $dueOn) { __typename ... on CoachingItem { id } ... on Error { code message } }
  }
`);

const clock = (secs: number[]) => secs.map((s) => formatClock(s)).join(', ');

export function CallCoaching({
  callId,
  time,
  onSeek,
}: {
  callId: string;
  /** The player's position, for "add this moment". */
  time: number;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useT();
  const role = useRole();
  const toast = useToast();
  const [{ data }, refetch] = useQuery({ query: CallCoachingQuery, variables: { callId } });
  const [, assign] = useMutation(AssignCoaching);
  const [open, setOpen] = useState(false);
  const [keys, setKeys] = useState<string[]>([]);
  const [improve, setImprove] = useState('');
  const [moments, setMoments] = useState('');
  const [dueOn, setDueOn] = useState('');
  const [momentsError, setMomentsError] = useState<string | null>(null);
  const call = data?.call;
  const criteria = call?.criteria ?? [];
  const items = (data?.coachingItems ?? []) as CoachingItemData[];
  const canAssign = roleAtLeast(role, 'ANALYST') && call?.status === 'ANALYZED' && criteria.length > 0;

  const evidenceOf = (chosen: string[]) =>
    [...new Set(criteria.filter((c) => chosen.includes(c.key)).flatMap((c) => (c.evidence ?? []).map((e) => e.start)))]
      .sort((a, b) => a - b)
      .slice(0, 5);
  const start = () => {
    const failed = criteria.filter((c) => c.result === 'FAILED').map((c) => c.key);
    const chosen = failed.length ? failed.slice(0, 1) : [];
    setKeys(chosen);
    setImprove('');
    setDueOn('');
    setMoments(clock(evidenceOf(chosen)));
    setMomentsError(null);
    setOpen(true);
  };
  const toggle = (key: string, on: boolean) => {
    const next = on ? [...keys, key] : keys.filter((k) => k !== key);
    setKeys(next);
    // Suggest the chosen criteria's evidence until the moments were typed by hand.
    if (!moments.trim() || moments === clock(evidenceOf(keys))) setMoments(clock(evidenceOf(next)));
  };
  const form = useFormMutation(
    async () => {
      const secs = parseMoments(moments);
      if (!secs) {
        setMomentsError(t('coaching.badMoments'));
        return { ok: false, error: { code: 'invalid_input', message: t('coaching.badMoments') } };
      }
      return outcome(await assign({ callId, keys, improve, moments: secs, dueOn: dueOn || null }), 'assignCoaching');
    },
    () => {
      setOpen(false);
      toast(t('coaching.assignedToast', { agent: call?.agent.name ?? '' }));
      refetch({ requestPolicy: 'network-only' });
    },
  );

  if (!call || (!canAssign && items.length === 0)) return null;
  return (
    <Card
      title={t('coaching.onCall')}
      actions={
        canAssign && (
          <Button size="sm" onClick={start} data-testid="assign-coaching">
            {t('coaching.assign')}
          </Button>
        )
      }
    >
      <div className="stack-sm" data-testid="call-coaching">
        {items.map((item) => (
          <CoachingItemCard
            key={item.id}
            item={item}
            canAcknowledge={role === 'AGENT'}
            canComplete={roleAtLeast(role, 'ANALYST')}
            onPlay={onSeek}
            onChanged={() => refetch({ requestPolicy: 'network-only' })}
          />
        ))}
      </div>
      <FormDialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('coaching.assignTitle', { agent: call.agent.name })}
        description={t('coaching.assignLead')}
        form={form}
        submitLabel={t('coaching.assignSubmit')}
        canSubmit={keys.length > 0 && improve.trim().length > 0}
      >
        <fieldset className="stack-sm coaching-criteria">
          <legend>{t('coaching.criteria')}</legend>
          {criteria.map((c) => (
            <Checkbox
              key={c.key}
              label={`${c.label} (${t(`coaching.result.${c.result}` as 'coaching.result.FAILED')})`}
              checked={keys.includes(c.key)}
              onChange={(e) => toggle(c.key, e.target.checked)}
            />
          ))}
        </fieldset>
        <TextArea
          label={t('coaching.improve')}
          value={improve}
          onChange={(e) => setImprove(e.target.value)}
          rows={3}
          required
        />
        <div className="row-wrap" style={{ alignItems: 'flex-end' }}>
          <TextField
            label={t('coaching.moments')}
            hint={t('coaching.momentsHint')}
            error={momentsError ?? undefined}
            value={moments}
            onChange={(e) => {
              setMoments(e.target.value);
              setMomentsError(null);
            }}
            style={{ minWidth: 220 }}
          />
          <Button size="sm" onClick={() => setMoments((m) => [m.trim(), formatClock(time)].filter(Boolean).join(', '))}>
            + {formatClock(time)}
          </Button>
        </div>
        <TextField label={t('coaching.due')} type="date" value={dueOn} onChange={(e) => setDueOn(e.target.value)} />
      </FormDialog>
    </Card>
  );
}
