/**
 * One calibration session (issue 31.1). While it is open a grader answers each criterion of each
 * call blind — the recording and transcript only; the API gives nothing else until it closes.
 * Once closed: every answer side by side with the benchmark's, the majority's and the machine's,
 * each grader's (and the machine's) alignment, and each criterion's agreement, explained.
 */
import { type ReactNode, useState } from 'react';
import { type HeadColumn, HeadCells } from '../components/table-head.tsx';
import { useMutation, useQuery } from 'urql';
import { Alert, Badge, Button, Card, ConfirmDialog, DataTable, LoadingBlock, PageHeader } from '../components/ui.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { describeError, outcome } from '../lib/errors.ts';
import { formatClock, useFormat } from '../lib/format.ts';
import { graphql, type ResultOf } from '../lib/graphql.ts';
import { useOutcomeToast } from '../lib/mutations.ts';
import { Link } from '../lib/router.tsx';
import { NotFoundPage } from './NotFound.tsx';

const SessionQuery = graphql(`
  query CalibrationSession($id: ID!) {
    calibrationSession(id: $id) {
      id name status templateName createdByName createdAt closedAt appliedAt mySeat canManage
      criteria { key label }
      graders { userId name benchmark submitted answered }
      calls { callId position startedAt durationSeconds agentName recordingUrl transcript { start speaker text } }
      myAnswers { callId criterionKey result }
      results {
        graders { userId name answered benchmarkMatches benchmarkCompared benchmarkAlignment majorityMatches majorityCompared majorityAlignment }
        machine { name answered benchmarkMatches benchmarkCompared benchmarkAlignment majorityMatches majorityCompared majorityAlignment }
        criteria { key label calls percentAgreement fleissKappa percentAgreementWithMachine fleissKappaWithMachine }
        cells { callId criterionKey answers { userId result } benchmark majority machine }
      }
    }
  }
`);

const Save = graphql(`
  mutation SaveCalibrationAnswers($sessionId: ID!, $callId: ID!, $answers: [CalibrationAnswerInput!]!) {
    saveCalibrationAnswers(sessionId: $sessionId, callId: $callId, answers: $answers) { __typename ... on CalibrationSession { id status } ... on Error { code message } }
  }
`);
const Close = graphql(`
  mutation CloseCalibration($id: ID!) {
    closeCalibrationSession(id: $id) { __typename ... on CalibrationSession { id status } ... on Error { code message } }
  }
`);
const Apply = graphql(`
  mutation ApplyCalibrationBenchmark($id: ID!) {
    applyCalibrationBenchmark(id: $id) { __typename ... on CalibrationSession { id appliedAt } ... on Error { code message } }
  }
`);

/** What a manager does to the session, each asked first: close it, apply the benchmark's answers. */
const ACTIONS = ['close', 'apply'] as const;

type Outcome = 'PASSED' | 'FAILED' | 'NA';
const OUTCOMES: Outcome[] = ['PASSED', 'FAILED', 'NA'];

export function CalibrationPage({ id }: { id: string }) {
  const i18n = useT();
  const { t } = i18n;
  const fmt = useFormat();
  const report = useOutcomeToast();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: SessionQuery,
    variables: { id },
    requestPolicy: 'cache-and-network',
  });
  const [confirm, setConfirm] = useState<(typeof ACTIONS)[number] | null>(null);
  const [closing, close] = useMutation(Close);
  const [applying, apply] = useMutation(Apply);
  const reload = () => refetch({ requestPolicy: 'network-only' });
  if (fetching && !data) return <LoadingBlock />;
  if (error) return <Alert tone="red">{describeError(i18n, error)}</Alert>;
  const s = data?.calibrationSession;
  if (!s) return <NotFoundPage />;
  const total = s.calls.length * s.criteria.length;
  const hasBenchmark = s.graders.some((g) => g.benchmark);

  return (
    <div className="page stack">
      <PageHeader
        back={<Link to="/calibration">← {t('calibration.back')}</Link>}
        title={
          <>
            {s.name}{' '}
            <Badge tone={s.status === 'OPEN' ? 'blue' : 'green'}>
              {t(`calibration.status.${s.status}` as MessageKey)}
            </Badge>
          </>
        }
        description={t('calibration.meta', {
          template: s.templateName ?? '—',
          calls: s.calls.length,
          by: s.createdByName ?? '—',
        })}
        actions={
          s.canManage && s.status === 'OPEN' ? (
            <Button onClick={() => setConfirm('close')}>{t('calibration.close')}</Button>
          ) : s.canManage && s.status === 'CLOSED' && hasBenchmark && !s.appliedAt ? (
            <Button onClick={() => setConfirm('apply')}>{t('calibration.apply')}</Button>
          ) : null
        }
      />
      <ul
        className="row-wrap calibration-graders"
        aria-label={t('calibration.graders')}
        data-testid="calibration-progress"
      >
        {s.graders.map((g) => (
          <li key={g.userId}>
            <Badge tone={g.submitted ? 'green' : 'gray'}>
              {t('calibration.graderState', { name: g.name, answered: g.answered, total })}
              {g.benchmark && ` · ${t('calibration.benchmarkTag')}`}
              {g.submitted && ` · ${t('calibration.submittedTag')}`}
            </Badge>
          </li>
        ))}
      </ul>
      {s.appliedAt && <Alert tone="blue">{t('calibration.appliedAt', { when: fmt.dateTime(s.appliedAt) })}</Alert>}

      {s.status === 'OPEN' && !s.mySeat && <Alert tone="blue">{t('calibration.waiting')}</Alert>}
      {s.status === 'OPEN' && s.mySeat && (
        <>
          <Alert tone="blue">{t('calibration.blind')}</Alert>
          {s.calls.map((c) => (
            <GradeCall
              key={c.callId}
              sessionId={s.id}
              call={c}
              criteria={s.criteria}
              mine={s.myAnswers.filter((a) => a.callId === c.callId)}
              onSaved={reload}
            />
          ))}
        </>
      )}
      {s.results && <Results session={s} results={s.results} />}

      {ACTIONS.map((action) => (
        <ConfirmDialog
          key={action}
          open={confirm === action}
          onClose={() => setConfirm(null)}
          title={t(`calibration.${action}`)}
          confirmLabel={t(`calibration.${action}`)}
          loading={(action === 'close' ? closing : applying).fetching}
          onConfirm={async () => {
            const done =
              action === 'close'
                ? report(outcome(await close({ id: s.id }), 'closeCalibrationSession'), t('calibration.closed'))
                : report(outcome(await apply({ id: s.id }), 'applyCalibrationBenchmark'), t('calibration.applied'));
            if (done) reload();
            setConfirm(null);
          }}
        >
          <p>{t(`calibration.${action}Confirm`)}</p>
        </ConfirmDialog>
      ))}
    </div>
  );
}

/** What the results need of the session. */
interface Session {
  criteria: readonly { key: string; label: string }[];
  graders: readonly { userId: string; name: string; benchmark: boolean }[];
  calls: readonly { callId: string; position: number }[];
}

function GradeCall({
  sessionId,
  call,
  criteria,
  mine,
  onSaved,
}: {
  sessionId: string;
  call: {
    callId: string;
    position: number;
    startedAt: string;
    agentName: string;
    recordingUrl: string;
    transcript: readonly { start: number; speaker: string | null; text: string }[] | null;
  };
  criteria: readonly { key: string; label: string }[];
  mine: readonly { criterionKey: string; result: Outcome }[];
  onSaved: () => void;
}) {
  const { t } = useT();
  const fmt = useFormat();
  const report = useOutcomeToast();
  const [{ fetching }, save] = useMutation(Save);
  const [answers, setAnswers] = useState<Record<string, Outcome>>(() =>
    Object.fromEntries(mine.map((a) => [a.criterionKey, a.result])),
  );
  const done = criteria.every((c) => mine.some((a) => a.criterionKey === c.key));
  const n = call.position;
  const headingId = `cal-call-${n}`;
  return (
    <section className="card" aria-labelledby={headingId} data-testid="calibration-call">
      <div className="card-body stack-sm">
        <div className="row-wrap">
          <h2 id={headingId}>{t('calibration.callN', { n })}</h2>
          <span className="muted">
            {call.agentName} · {fmt.dateTime(call.startedAt)}
          </span>
          {done && <Badge tone="green">{t('calibration.answered')}</Badge>}
        </div>
        {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the recording's text. */}
        <audio controls preload="none" src={call.recordingUrl} aria-label={t('calibration.recording', { n })} />
        <details>
          <summary>{t('calibration.transcript')}</summary>
          {call.transcript?.length ? (
            <ol className="calibration-transcript">
              {call.transcript.map((seg, i) => (
                <li key={`${seg.start}-${i}`}>
                  <span className="muted small">{formatClock(seg.start)}</span> {seg.text}
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">{t('calibration.noTranscript')}</p>
          )}
        </details>
        <form
          className="stack-sm"
          onSubmit={async (e) => {
            e.preventDefault();
            const list = Object.entries(answers).map(([key, result]) => ({ key, result }));
            const out = outcome(
              await save({ sessionId, callId: call.callId, answers: list }),
              'saveCalibrationAnswers',
            );
            if (
              report(
                out,
                out.ok && out.value.status === 'CLOSED' ? t('calibration.savedClosed') : t('calibration.saved'),
              )
            )
              onSaved();
          }}
        >
          <h3 className="small">{t('calibration.yourAnswers')}</h3>
          {criteria.map((c) => (
            <fieldset key={c.key} className="calibration-criterion">
              <legend>{c.label}</legend>
              {OUTCOMES.map((o) => (
                <label key={o} className="checkbox">
                  <input
                    type="radio"
                    name={`${call.callId}-${c.key}`}
                    value={o}
                    checked={answers[c.key] === o}
                    onChange={() => setAnswers({ ...answers, [c.key]: o })}
                  />
                  <span>{t(`calibration.outcome.${o}` as MessageKey)}</span>
                </label>
              ))}
            </fieldset>
          ))}
          <div>
            <Button type="submit" variant="primary" loading={fetching} disabled={!Object.keys(answers).length}>
              {t('calibration.saveCall', { n })}
            </Button>
          </div>
        </form>
      </div>
    </section>
  );
}

/** The results as the session query reads them (graphql-env.d.ts), not a hand-kept copy of the server's types. */
type CalibrationResults = NonNullable<NonNullable<ResultOf<typeof SessionQuery>['calibrationSession']>['results']>;
type AlignmentRow = CalibrationResults['machine'];

function Results({ session: s, results: r }: { session: Session; results: CalibrationResults }) {
  const { t } = useT();
  const fmt = useFormat();
  const ratio = (n: number, of: number, share: number | null) =>
    share == null ? t('calibration.none') : t('calibration.ratio', { pct: fmt.percent(share), n, of });
  const kappa = (k: number | null) => (k == null ? t('calibration.none') : fmt.number(k, 2));
  const pct = (p: number | null) => (p == null ? t('calibration.none') : fmt.percent(p));
  const outcomeText = (o: Outcome | null) => (o ? t(`calibration.outcome.${o}` as MessageKey) : t('calibration.none'));
  const graders = s.graders.filter((g) => !g.benchmark);
  const hasBenchmark = s.graders.some((g) => g.benchmark);
  const label = (key: string) => s.criteria.find((c) => c.key === key)?.label ?? key;
  const position = (callId: string) => s.calls.find((c) => c.callId === callId)?.position ?? 0;
  const alignRow = (a: AlignmentRow, machine: boolean) => (
    <tr key={a.name} data-testid={machine ? 'alignment-machine' : 'alignment-grader'}>
      <th scope="row">{machine ? t('calibration.machine') : a.name}</th>
      <td>{a.answered}</td>
      {hasBenchmark && <td>{ratio(a.benchmarkMatches, a.benchmarkCompared, a.benchmarkAlignment)}</td>}
      <td>{ratio(a.majorityMatches, a.majorityCompared, a.majorityAlignment)}</td>
    </tr>
  );
  return (
    <>
      <ResultsCard
        name="alignment"
        columns={[
          'calibration.colGrader',
          'calibration.colAnswered',
          hasBenchmark && 'calibration.colVsBenchmark',
          'calibration.colVsMajority',
        ]}
      >
        {r.graders.map((g) => alignRow(g, false))}
        {alignRow(r.machine, true)}
      </ResultsCard>
      <ResultsCard name="agreement" columns={AGREEMENT_COLUMNS}>
        {r.criteria.map((c) => (
          <tr key={c.key}>
            <th scope="row">{c.label}</th>
            <td>{c.calls}</td>
            <td>{pct(c.percentAgreement)}</td>
            <td>{kappa(c.fleissKappa)}</td>
            <td>{pct(c.percentAgreementWithMachine)}</td>
            <td>{kappa(c.fleissKappaWithMachine)}</td>
          </tr>
        ))}
      </ResultsCard>
      <ResultsCard
        name="answers"
        columns={[
          'calibration.colCall',
          'calibration.colCriterion',
          ...graders.map((g) => ({ label: g.name })),
          hasBenchmark && 'calibration.colBenchmark',
          'calibration.colMajority',
          'calibration.colMachine',
        ]}
      >
        {r.cells.map((c) => {
          const all = [...c.answers.map((a) => a.result), c.benchmark, c.machine].filter(Boolean);
          const disagree = new Set(all).size > 1;
          return (
            <tr key={`${c.callId}-${c.criterionKey}`} className={disagree ? 'row-flagged' : undefined}>
              <td>{t('calibration.callN', { n: position(c.callId) })}</td>
              <th scope="row">
                {label(c.criterionKey)}
                {disagree && <span className="sr-only"> ({t('calibration.disagree')})</span>}
              </th>
              {c.answers.map((a) => (
                <td key={a.userId}>{outcomeText(a.result)}</td>
              ))}
              {hasBenchmark && <td>{outcomeText(c.benchmark)}</td>}
              <td>{outcomeText(c.majority)}</td>
              <td>{outcomeText(c.machine)}</td>
            </tr>
          );
        })}
      </ResultsCard>
    </>
  );
}

const AGREEMENT_COLUMNS = [
  'calibration.colCriterion',
  'calibration.colCalls',
  'calibration.colPercent',
  'calibration.colKappa',
  'calibration.colPercentMachine',
  'calibration.colKappaMachine',
] as const;

/** A card of the results: its title and lead (`calibration.<name>`, `…Lead`) over its table. */
function ResultsCard({
  name,
  columns,
  children,
}: {
  name: 'alignment' | 'agreement' | 'answers';
  columns: readonly HeadColumn[];
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <Card title={t(`calibration.${name}`)} description={t(`calibration.${name}Lead`)} bodyClass="tight">
      <DataTable testId={`calibration-${name}`} head={<HeadCells columns={columns} scope="col" />}>
        {children}
      </DataTable>
    </Card>
  );
}
