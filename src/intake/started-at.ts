export type StartedAt = { kind: 'ok'; date: Date } | { kind: 'unparseable' } | { kind: 'out_of_range' };

// ISO 8601's extended (2024-05-06T10:00:00+02:00) and basic (20240506T100000+0200) forms, each
// with an offset; a space may stand for the T in the extended form (RFC 3339 allows it).
const ISO_EXTENDED =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?:\d{2})?)$/i;
const MIN = Date.UTC(2000, 0, 1);
const DAY = 86_400_000;

/**
 * `started_at` per the intake document: ISO 8601 with an offset (a local time without one is
 * ambiguous, so it is not understood), Unix seconds, or Unix milliseconds. Seconds and milliseconds
 * of the acceptable range (2000 to tomorrow) never overlap: 10^11 is past it as seconds and before
 * it as milliseconds, so anything from there up is read as milliseconds.
 */
export function parseStartedAt(value: string, now = new Date()): StartedAt {
  const v = value.trim();
  let ms: number | null = null;
  const iso = ISO_EXTENDED.exec(v) ?? ISO_BASIC.exec(v);
  if (iso) ms = isoMillis(iso);
  else if (/^\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    ms = n >= 1e11 ? n : n * 1000;
  }
  if (ms === null || !Number.isFinite(ms)) return { kind: 'unparseable' };
  return inRange(ms, now) ? { kind: 'ok', date: new Date(Math.round(ms)) } : { kind: 'out_of_range' };
}

/** Milliseconds of a matched ISO date-time, NaN for an impossible one (Feb 30, 24:00, …). */
function isoMillis(iso: RegExpExecArray): number {
  const [y, mo, d, h, mi, s = '00', frac = '0', zone] = iso.slice(1) as string[];
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as number[];
  const probe = new Date(Date.UTC(year!, month! - 1, day!));
  if (probe.getUTCMonth() !== month! - 1 || probe.getUTCDate() !== day || hour! > 23 || minute! > 59 || second! > 59)
    return NaN;
  // Date.parse wants ±hh:mm; ISO 8601 also allows ±hhmm and ±hh.
  const offset = zone!.toUpperCase() === 'Z' ? 'Z' : `${zone!.slice(0, 3)}:${zone!.slice(3).replace(':', '') || '00'}`;
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${frac.padEnd(3, '0').slice(0, 3)}${offset}`);
}

/** The acceptable range of the intake document §8: from year 2000 up to one day ahead of now. */
export function inRange(ms: number, now = new Date()): boolean {
  return ms >= MIN && ms <= now.getTime() + DAY;
}
