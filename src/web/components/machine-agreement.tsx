/**
 * Small pieces of the machine-agreement report (issue 31.2) other pages show: the flag of criteria
 * below the account's threshold (dashboard, template editor) and the note of the calls list's
 * "checked by a person" filter. The period of the flag is the last 90 days.
 */
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { useT, type MessageKey } from '../i18n/index.tsx';
import type { CallsQuery } from '../lib/call-filters.ts';
import { addDays, dayIn, zonedMidnightIso } from '../lib/account-days.ts';
import { useFormat } from '../lib/format.ts';
import { graphql } from '../lib/graphql.ts';
import { Link } from '../lib/router.tsx';
import { Alert, Button } from './ui.tsx';

const FlagQuery = graphql(`
  query MachineAgreementFlags($from: DateTime) {
    machineAgreement(startedFrom: $from) { threshold rows { criterionKey label agreement flagged } }
  }
`);

/** Flagged criteria of the last 90 days (only those of `keys` when given); nothing when none. */
export function MachineAgreementFlag({ keys }: { keys?: readonly string[] }) {
  const { t } = useT();
  const fmt = useFormat();
  // The account's midnight 90 days ago (as the agreement page's default range): a stable variable for
  // the query cache within a day.
  const today = dayIn(new Date(), fmt.timeZone);
  const from = useMemo(() => zonedMidnightIso(addDays(today, -90), fmt.timeZone), [today, fmt.timeZone]);
  const [{ data }] = useQuery({ query: FlagQuery, variables: { from } });
  const report = data?.machineAgreement;
  const flagged = (report?.rows ?? []).filter((r) => r.flagged && (!keys || keys.includes(r.criterionKey)));
  if (!report || !flagged.length) return null;
  const list = flagged
    .map((r) => t('agreement.flagItem', { label: r.label, pct: fmt.percent(r.agreement) }))
    .join(', ');
  return (
    <div data-testid="machine-agreement-flag">
      <Alert tone="amber" title={t('agreement.flagTitle', { pct: fmt.percent(report.threshold / 100) })}>
        {t('agreement.flagBody', { list })} <Link to="/agreement">{t('agreement.flagLink')}</Link>
      </Alert>
    </div>
  );
}

/** The calls list's "checked by a person" filter, in words, with a way to remove it. */
export function CheckedFilterNote({
  q,
  setQ,
}: {
  q: CallsQuery;
  setQ: (p: Partial<CallsQuery>, o?: { replace?: boolean }) => void;
}) {
  const { t } = useT();
  if (!q.checked) return null;
  const change = q.change ? ` · ${t(`calls.checkedChange.${q.change}` as MessageKey)}` : '';
  return (
    <div className="row-wrap" data-testid="checked-filter">
      <span className="badge badge-accent">
        {t('calls.checkedFilter', { criterion: q.checked })}
        {change}
      </span>
      <Button size="sm" onClick={() => setQ({ checked: null, change: null })}>
        {t('calls.checkedClear')}
      </Button>
    </div>
  );
}
