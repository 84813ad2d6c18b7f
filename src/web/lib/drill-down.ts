import { addDays } from './account-days.ts';
import { type CallsQuery, DEFAULT_QUERY, serializeCallsQuery } from './call-filters.ts';

/**
 * The dashboard's drill-down (issue 31.4): every number there is a count of calls, and this turns
 * the dashboard's filter plus what the number counts into the calls list's URL, so the list shows
 * exactly those calls and its total is the number. The rules mirror the rollups the numbers come
 * from (prisma/sql/definitions.sql, report_rollup_sql): days in the account's time zone, scored
 * calls only (analyzed with a score), language mismatches left out unless the dashboard includes them.
 */

export type Interval = 'DAY' | 'WEEK' | 'MONTH';

export interface DashboardFilter {
  from: string;
  to: string;
  agent: string;
  campaign: string;
  template: string;
  language: string;
  mismatch: boolean;
}

/** The calls the dashboard's filter covers, before any number narrows them. */
function base(f: DashboardFilter): CallsQuery {
  return {
    ...DEFAULT_QUERY,
    view: 'analyzed',
    from: f.from,
    to: f.to,
    agent: f.agent || null,
    campaign: f.campaign || null,
    template: f.template || null,
    language: f.language || null,
    scored: true,
    mismatch: f.mismatch ? null : 'exclude',
  };
}

/** The calls list URL of a number: the dashboard's filter narrowed by `narrow`. */
export function drillHref(f: DashboardFilter, narrow: Partial<CallsQuery> = {}): string {
  return `/calls?${serializeCallsQuery({ ...base(f), ...narrow })}`;
}

/**
 * Disputes count by when they were opened or answered, not when their call started, and over
 * calls in any state (src/reports/reports.ts reportDisputes): the call filters stay, the days move
 * to the dispute.
 */
export function disputeHref(
  f: DashboardFilter,
  outcome: NonNullable<CallsQuery['dispute']>,
  days: { from: string; to: string },
): string {
  return drillHref(f, {
    from: null,
    to: null,
    scored: false,
    dispute: outcome,
    disputeFrom: days.from,
    disputeTo: days.to,
  });
}

/**
 * The period of the same length just before the dashboard's, which an agent's or campaign's previous
 * figures count (src/reports/reports.ts previousPeriod).
 */
export function previousDays(f: { from: string; to: string }): { from: string; to: string } {
  const length = Math.round((Date.parse(`${f.to}T00:00:00Z`) - Date.parse(`${f.from}T00:00:00Z`)) / 86_400_000) + 1;
  return { from: addDays(f.from, -length), to: addDays(f.from, -1) };
}

/** The days a bucket of the report covers, within the dashboard's range (weeks start on Monday). */
export function bucketDays(period: string, interval: Interval, f: { from: string; to: string }) {
  let last = period;
  if (interval === 'WEEK') last = addDays(period, 6);
  if (interval === 'MONTH') {
    const d = new Date(`${period.slice(0, 7)}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() + 1);
    last = addDays(d.toISOString().slice(0, 10), -1);
  }
  return { from: period < f.from ? f.from : period, to: last > f.to ? f.to : last };
}

/** A score band [from, to): the last band (90–100) includes 100. */
export const bandNarrow = (from: number, to: number): Partial<CallsQuery> =>
  to >= 100 ? { scoreMin: from } : { scoreMin: from, scoreBelow: to };
