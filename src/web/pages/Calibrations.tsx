/**
 * Calibration sessions (issue 31.1): the list (managers see every session, analysts those they
 * grade) and, for managers, the form that starts one — calls by hand or a random sample of a
 * calls-list filter, the template, the graders and an optional benchmark grader.
 */
import { DayFields } from '../components/DateRange.tsx';
import { ListTable } from '../components/list-table.tsx';
import { ItemSelect } from '../components/item-select.tsx';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  EmptyState,
  LoadingBlock,
  NumberField,
  PageHeader,
  TextField,
} from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { useFormMutation } from '../lib/mutations.ts';
import { Link, navigate } from '../lib/router.tsx';

const SessionsQuery = graphql(`
  query CalibrationSessions {
    calibrationSessions { id name status createdAt templateName graders { userId benchmark submitted } }
  }
`);

const FormQuery = graphql(`
  query CalibrationForm {
    templates { id name }
    users { id name role removedAt }
    agents { id name }
    calls(first: 50, filter: { view: ANALYZED }) { edges { node { id startedAt agent { name } } } }
  }
`);

const Create = graphql(`
  mutation CreateCalibration($input: CreateCalibrationSessionInput!) {
    createCalibrationSession(input: $input) { __typename ... on CalibrationSession { id } ... on Error { code message } }
  }
`);

export function CalibrationsPage() {
  const i18n = useT();
  const { t } = i18n;
  const fmt = useFormat();
  const manager = roleAtLeast(useRole(), 'ADMIN');
  const [{ data, error, fetching }] = useQuery({ query: SessionsQuery, requestPolicy: 'cache-and-network' });
  const [creating, setCreating] = useState(false);
  const list = data?.calibrationSessions ?? [];
  return (
    <div className="page stack">
      <PageHeader
        title={t('calibration.title')}
        description={t('calibration.lead')}
        actions={
          manager && !creating ? (
            <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
              {t('calibration.new')}
            </Button>
          ) : null
        }
      />
      {creating && <NewSession onCancel={() => setCreating(false)} />}
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      {fetching && !data ? (
        <LoadingBlock />
      ) : (
        <Card title={t('calibration.sessions')} bodyClass={list.length ? 'tight' : undefined}>
          <ListTable
            testId="calibration-sessions"
            rows={list}
            columns={[
              t('calibration.colName'),
              t('calibration.colStatus'),
              t('calibration.colProgress'),
              t('calibration.colCreated'),
            ]}
            empty={
              <EmptyState icon="check" title={t('calibration.empty')}>
                {t('calibration.emptyBody')}
              </EmptyState>
            }
            row={(s) => (
              <tr key={s.id}>
                <td>
                  <Link to={`/calibration/${s.id}`}>{s.name}</Link>
                  {s.templateName && <div className="muted small">{s.templateName}</div>}
                </td>
                <td>
                  <Badge tone={s.status === 'OPEN' ? 'blue' : 'green'}>
                    {t(`calibration.status.${s.status}` as MessageKey)}
                  </Badge>
                </td>
                <td>
                  {t('calibration.progress', {
                    done: s.graders.filter((g) => g.submitted).length,
                    total: s.graders.length,
                  })}
                </td>
                <td>{fmt.dateTime(s.createdAt)}</td>
              </tr>
            )}
          />
        </Card>
      )}
    </div>
  );
}

function NewSession({ onCancel }: { onCancel: () => void }) {
  const { t } = useT();
  const fmt = useFormat();
  const [{ data }] = useQuery({ query: FormQuery });
  const [{ fetching }, create] = useMutation(Create);
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [mode, setMode] = useState<'hand' | 'sample'>('hand');
  const [callIds, setCallIds] = useState<string[]>([]);
  const [size, setSize] = useState('5');
  const [agentId, setAgentId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [graderIds, setGraderIds] = useState<string[]>([]);
  const [benchmark, setBenchmark] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const template = templateId || data?.templates[0]?.id || '';
  const people = (data?.users ?? []).filter((u) => !u.removedAt && roleAtLeast(u.role, 'ANALYST'));
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));

  const { error, submit } = useFormMutation(
    async () => {
      const filter = {
        view: 'ANALYZED' as const,
        ...(agentId ? { agentIds: [agentId] } : {}),
        // Days of the account's zone, as the calls list sends them.
        ...(from ? { dayFrom: from } : {}),
        ...(to ? { dayTo: to } : {}),
      };
      return outcome(
        await create({
          input: {
            name,
            templateId: template,
            ...(mode === 'hand' ? { callIds } : { filter, sampleSize: Number(size) }),
            graderIds,
            benchmarkUserId: benchmark || null,
          },
        }),
        'createCalibrationSession',
      );
    },
    (s) => navigate(`/calibration/${s.id}`),
  );

  return (
    <Card title={t('calibration.new')}>
      <form
        className="stack"
        onSubmit={(e) => {
          setLocal(null);
          if (mode === 'hand' && !callIds.length) {
            e.preventDefault();
            setLocal(t('calibration.needCalls'));
            return;
          }
          if (!graderIds.length) {
            e.preventDefault();
            setLocal(t('calibration.needGraders'));
            return;
          }
          void submit(e);
        }}
      >
        <div className="grid-2">
          <TextField label={t('calibration.name')} value={name} onChange={(e) => setName(e.target.value)} required />
          <ItemSelect
            label={t('calibration.template')}
            value={template}
            onValue={setTemplateId}
            items={data?.templates ?? []}
          />
        </div>
        <fieldset className="stack-sm">
          <legend>{t('calibration.pick')}</legend>
          <label className="checkbox">
            <input type="radio" name="pick" checked={mode === 'hand'} onChange={() => setMode('hand')} />
            <span>{t('calibration.pickHand')}</span>
          </label>
          <label className="checkbox">
            <input type="radio" name="pick" checked={mode === 'sample'} onChange={() => setMode('sample')} />
            <span>{t('calibration.pickSample')}</span>
          </label>
        </fieldset>
        {mode === 'hand' ? (
          <fieldset className="stack-sm calibration-pick" data-testid="calibration-pick">
            <legend className="small muted">{t('calibration.pickCalls')}</legend>
            {(data?.calls.edges ?? []).map(({ node }) => (
              <Checkbox
                key={node.id}
                label={t('calibration.callOf', { agent: node.agent.name, when: fmt.dateTime(node.startedAt) })}
                checked={callIds.includes(node.id)}
                onChange={(e) => setCallIds(toggle(callIds, node.id, e.target.checked))}
              />
            ))}
          </fieldset>
        ) : (
          <div className="grid-2">
            <NumberField
              label={t('calibration.sampleSize')}
              min={1}
              max={50}
              value={size}
              onChange={(e) => setSize(e.target.value)}
            />
            <ItemSelect
              label={t('calibration.sampleAgent')}
              value={agentId}
              onValue={setAgentId}
              none={t('calibration.sampleAnyAgent')}
              items={data?.agents ?? []}
            />
            <DayFields
              from={from}
              to={to}
              labels={[t('calibration.sampleFrom'), t('calibration.sampleTo')]}
              onFrom={setFrom}
              onTo={setTo}
            />
          </div>
        )}
        <fieldset className="stack-sm" data-testid="calibration-graders">
          <legend>{t('calibration.graders')}</legend>
          <span className="hint">{t('calibration.gradersHint')}</span>
          {people.map((u) => (
            <Checkbox
              key={u.id}
              label={u.name}
              checked={graderIds.includes(u.id)}
              disabled={benchmark === u.id}
              onChange={(e) => setGraderIds(toggle(graderIds, u.id, e.target.checked))}
            />
          ))}
        </fieldset>
        <ItemSelect
          label={t('calibration.benchmark')}
          hint={t('calibration.benchmarkHint')}
          value={benchmark}
          onValue={setBenchmark}
          none={t('calibration.benchmarkNone')}
          items={people.filter((u) => !graderIds.includes(u.id))}
        />
        {(local || error) && <Alert tone="red">{local ?? error}</Alert>}
        <div className="row">
          <Button type="submit" variant="primary" loading={fetching}>
            {t('calibration.create')}
          </Button>
          <Button onClick={onCancel}>{t('common.cancel')}</Button>
        </div>
      </form>
    </Card>
  );
}
