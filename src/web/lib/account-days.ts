/**
 * Days of the ACCOUNT's time zone (issue 26): every date field of the app means a calendar day where
 * the account works, not where the browser is, so two people see the same calls for "3 March".
 * Where the API takes days (CallFilter.dayFrom/dayTo) the days are sent as they are; where a field
 * takes only instants (the audit log, machine agreement), `dayRangeInstants` turns the inclusive days
 * into [first instant of `from`, first instant of the day after `to`) in that zone.
 */

/** A Date's calendar day in the browser's zone, as YYYY-MM-DD (only without a usable account zone). */
export function localDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function dayFormat(timeZone: string): Intl.DateTimeFormat | null {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    return null; // An unknown zone.
  }
}

/** The calendar day of an instant in a time zone as YYYY-MM-DD; the browser's without a usable zone. */
export function dayIn(d: Date, timeZone?: string | null): string {
  const f = timeZone ? dayFormat(timeZone) : null;
  return f ? f.format(d) : localDay(d);
}

/** `day` moved by `n` calendar days (plain date arithmetic, no zone involved). */
export const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The first instant of `day` in `timeZone`, as an ISO string (the browser's midnight without a usable
 * zone). The zone's offset is read at the candidate instant itself, so a DST change the day before or
 * after cannot shift it by an hour; where midnight does not exist (a zone that springs forward at
 * 00:00) the day starts at the change, as PostgreSQL's `day::timestamp AT TIME ZONE zone` has it.
 */
export function zonedMidnightIso(day: string, timeZone?: string | null): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  if (!timeZone || !dayFormat(timeZone)) return new Date(y, m - 1, d).toISOString();
  const wall = Date.UTC(y, m - 1, d);
  const first = wall - offsetAt(wall, timeZone);
  const candidates = [first, wall - offsetAt(first, timeZone)];
  // A candidate is right when the zone's offset at it is the one it was computed with.
  const valid = candidates.filter((t) => wall - offsetAt(t, timeZone) === t);
  const at = valid.length ? Math.min(...valid) : Math.max(...candidates);
  return new Date(at).toISOString();
}

/**
 * Inclusive account-zone days as the instants a DateTime range takes: `from` at its first instant,
 * `to` as the first instant of the next day (exclusive); null where a side is not chosen.
 */
export function dayRangeInstants(
  from: string | null | undefined,
  to: string | null | undefined,
  timeZone?: string | null,
): { from: string | null; to: string | null } {
  return {
    from: from ? zonedMidnightIso(from, timeZone) : null,
    to: to ? zonedMidnightIso(addDays(to, 1), timeZone) : null,
  };
}
