/**
 * How often people agree with the machine, per criterion (issue 31.2): over the calls started in a
 * period (as the calls list filters them), each criterion a person checked — overrides, answered
 * disputes, closed calibrations — with how often the verdict stood and how it changed, a link to
 * those calls in the calls list, and the account's threshold below which a criterion is flagged.
 */
import { DayFields } from '../components/DateRange.tsx';
import { ListTable } from '../components/list-table.tsx';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Alert, Badge, Button, Card, EmptyState, LoadingBlock, NumberField, PageHeader } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { roleAtLeast, useRole } from '../lib/auth.tsx';
import { addDays, dayIn, dayRangeInstants } from '../lib/account-days.ts';
import { DEFAULT_QUERY, serializeCallsQuery } from '../lib/call-filters.ts';
import { describeError, outcome } from '../lib/errors.ts';
import { useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { useFormMutation } from '../lib/mutations.ts';
import { Link } from '../lib/router.tsx';

const AgreementQuery = graphql(`
  query MachineAgreement($from: DateTime, $to: DateTime) {
    machineAgreement(startedFrom: $from, startedTo: $to) {
      threshold
      mostChanged { criterionKey label checked changed }
      rows { criterionKey label checked stood changed falseFail falsePass otherChange agreement flagged }
    }
  }
`);

const SetThreshold = graphql(`
  mutation SetMachineAgreementThreshold($percent: Int!) {
    setMachineAgreementThreshold(percent: $percent) { __typename ... on Account { id machineAgreementThreshold } ... on Error { code message } }
  }
`);

export function MachineAgreementPage() {
  const i18n = useT();
  const { t } = i18n;
  const fmt = useFormat();
  const admin = roleAtLeast(useRole(), 'ADMIN');
  // The last 90 days of the account's zone: the days the calls list (linked below) filters on.
  const today = dayIn(new Date(), fmt.timeZone);
  const [picked, setPicked] = useState<{ from?: string; to?: string }>({});
  const from = picked.from ?? addDays(today, -90);
  const to = picked.to ?? today;
  const [{ data, error, fetching }, refetch] = useQuery({
    query: AgreementQuery,
    variables: dayRangeInstants(from, to, fmt.timeZone),
    requestPolicy: 'cache-and-network',
  });
  const report = data?.machineAgreement;
  const callsOf = (key: string, change: 'changed' | null) =>
    `/calls?${serializeCallsQuery({ ...DEFAULT_QUERY, from: from || null, to: to || null, checked: key, change })}`;

  return (
    <div className="page stack">
      <PageHeader title={t('agreement.title')} description={t('agreement.lead')} />
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not yet in every browser the app supports. */}
      <div className="card" role="search" aria-label={t('agreement.title')}>
        <div className="card-body row-wrap">
          <DayFields
            from={from}
            to={to}
            labels={[t('agreement.from'), t('agreement.to')]}
            onFrom={(day) => setPicked((p) => ({ ...p, from: day }))}
            onTo={(day) => setPicked((p) => ({ ...p, to: day }))}
            linked
          />
        </div>
      </div>
      {error && <Alert tone="red">{describeError(i18n, error)}</Alert>}
      {fetching && !data ? (
        <LoadingBlock />
      ) : !report?.rows.length ? (
        <Card title={t('agreement.byCriterion')}>
          <EmptyState icon="check" title={t('agreement.empty')}>
            {t('agreement.emptyBody')}
          </EmptyState>
        </Card>
      ) : (
        <>
          <p data-testid="agreement-most">
            {report.mostChanged ? (
              <>
                {t('agreement.most', {
                  label: report.mostChanged.label,
                  n: report.mostChanged.changed,
                  of: report.mostChanged.checked,
                })}{' '}
                <Link to={callsOf(report.mostChanged.criterionKey, 'changed')}>
                  {t('agreement.changedLink', { label: report.mostChanged.label })}
                </Link>
              </>
            ) : (
              t('agreement.noneChanged')
            )}
          </p>
          <Card title={t('agreement.byCriterion')} bodyClass="tight" description={t('agreement.explain')}>
            <ListTable
              testId="agreement-table"
              rows={report.rows}
              columns={[
                t('agreement.colCriterion'),
                t('agreement.colChecked'),
                t('agreement.colStood'),
                t('agreement.colFalseFail'),
                t('agreement.colFalsePass'),
                t('agreement.colOther'),
                t('agreement.colAgreement'),
              ]}
              empty={null}
              row={(r) => (
                <tr key={r.criterionKey} className={r.flagged ? 'row-flagged' : undefined}>
                  <th scope="row">
                    {/* The criterion opens its checked calls: eight columns did not fit 960 px in Spanish. */}
                    <Link to={callsOf(r.criterionKey, null)} aria-label={t('agreement.callsLink', { label: r.label })}>
                      {r.label}
                    </Link>
                  </th>
                  <td>{r.checked}</td>
                  <td>{r.stood}</td>
                  <td>{r.falseFail}</td>
                  <td>{r.falsePass}</td>
                  <td>{r.otherChange}</td>
                  <td>
                    {fmt.percent(r.agreement)}{' '}
                    {r.flagged && (
                      <Badge tone="amber">{t('agreement.flagged', { pct: fmt.percent(report.threshold / 100) })}</Badge>
                    )}
                  </td>
                </tr>
              )}
            />
          </Card>
        </>
      )}
      {admin && report && (
        <ThresholdForm current={report.threshold} onSaved={() => refetch({ requestPolicy: 'network-only' })} />
      )}
    </div>
  );
}

function ThresholdForm({ current, onSaved }: { current: number; onSaved: () => void }) {
  const { t } = useT();
  const [value, setValue] = useState(String(current));
  const [{ fetching }, save] = useMutation(SetThreshold);
  const [saved, setSaved] = useState(false);
  const { error, submit } = useFormMutation(
    async () => outcome(await save({ percent: Number(value) }), 'setMachineAgreementThreshold'),
    () => {
      setSaved(true);
      onSaved();
    },
  );
  return (
    <Card title={t('agreement.threshold')} description={t('agreement.thresholdHint')}>
      <form className="row-wrap" onSubmit={submit}>
        <NumberField
          label={t('agreement.threshold')}
          min={0}
          max={100}
          value={value}
          error={error ?? undefined}
          onChange={(e) => {
            setSaved(false);
            setValue(e.target.value);
          }}
        />
        <Button type="submit" loading={fetching}>
          {t('agreement.thresholdSave')}
        </Button>
        {saved && <span role="status">{t('agreement.thresholdSaved')}</span>}
      </form>
    </Card>
  );
}
