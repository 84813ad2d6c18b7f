// One formatter per time zone for the process: building one costs far more than using it.
const wallClocks = new Map<string, Intl.DateTimeFormat>();
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let f = wallClocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(timeZone, f);
  }
  return f;
}

/** Offset (ms) of `timeZone` from UTC at the instant `utcMs`. */
function offsetAt(utcMs: number, timeZone: string): number {
  const parts = wallClock(timeZone).formatToParts(utcMs);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return (
    Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) -
    Math.floor(utcMs / 1000) * 1000
  );
}

/** The instant when the wall clock in `timeZone` shows the given local time (file names carry local times). */
export function zonedTimeToUtc(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  timeZone: string,
): Date | null {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  // Reject impossible dates (Feb 30, hour 25) instead of letting Date roll them over.
  if (
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    check.getUTCHours() !== h ||
    check.getUTCMinutes() !== mi ||
    check.getUTCSeconds() !== s
  ) {
    return null;
  }
  // Two passes settle the offset across a DST change.
  let utc = wall - offsetAt(wall, timeZone);
  utc = wall - offsetAt(utc, timeZone);
  return new Date(utc);
}
