import type { ReactNode } from 'react';
import { useT } from '../i18n/index.tsx';
import { formatNumber } from '../lib/format.ts';
import { Link } from '../lib/router.tsx';
import { Icon } from './Icon.tsx';
import { Card } from './ui.tsx';

/**
 * One report of the dashboard (issue 28.8): a card with its title, optional lead, the chart or
 * table, and the CSV download of the same rows under the same filter.
 */
export function ReportCard({
  title,
  description,
  csvHref,
  csvId,
  children,
}: {
  title: string;
  description?: string;
  /** The report's CSV under the dashboard's filter (/api/reports/<table>.csv?…). */
  csvHref: string;
  /** The table's name, for the download's test id (`csv-<id>`). */
  csvId: string;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <Card
      title={title}
      description={description}
      actions={
        <a className="btn btn-sm" href={csvHref} download data-testid={`csv-${csvId}`}>
          <Icon name="download" /> {t('dashboard.csv')}
        </a>
      }
    >
      {children}
    </Card>
  );
}

/**
 * A count that opens the calls it counts (issue 31.4): a link to the calls list, whose total is
 * this number. `label` says what is counted, for screen readers and the tooltip.
 */
export function DrillCount({ value, href, label }: { value: number; href: string; label: string }) {
  const { t, locale } = useT();
  const text = formatNumber(value, locale);
  if (value === 0) return <>{text}</>;
  return (
    <Link
      to={href}
      className="drill"
      data-drill={value}
      title={t('drill.open', { n: text, what: label })}
      aria-label={t('drill.open', { n: text, what: label })}
    >
      {text}
    </Link>
  );
}

/**
 * A figure computed over calls — an average or a share — that opens them (issue 31.4). The figure
 * is not a count, so the link's name says how many calls it opens and which (`what`): for an
 * average the calls it averages, for a share its numerator's calls (and `what` names the
 * denominator). `data-drill` is that number of calls, the list's total.
 */
export function DrillFigure({
  text,
  count,
  href,
  label,
}: {
  text: string;
  count: number;
  href: string;
  label: string;
}) {
  const { t, locale } = useT();
  if (count === 0) return <>{text}</>;
  const name = t('drill.figure', { figure: text, n: formatNumber(count, locale), what: label });
  return (
    <Link to={href} className="drill" data-drill={count} title={name} aria-label={name}>
      {text}
    </Link>
  );
}
