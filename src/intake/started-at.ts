export type StartedAt = { kind: 'ok'; date: Date } | { kind: 'unparseable' } | { kind: 'out_of_range' };

const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const MIN = Date.UTC(2000, 0, 1);
const DAY = 86_400_000;

/**
 * `started_at` per the intake document: ISO 8601 with an offset (a local time without one is
 * ambiguous, so it is not understood), Unix seconds, or Unix milliseconds (≥ 10^12).
 */
export function parseStartedAt(value: string, now = new Date()): StartedAt {
  const v = value.trim();
  let ms: number | null = null;
  const iso = ISO_WITH_OFFSET.exec(v);
  if (iso) {
    const [, y, mo, d, h, mi, s] = iso.map(Number) as number[];
    const probe = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s || 0));
    const valid = probe.getUTCMonth() === mo! - 1 && probe.getUTCDate() === d && h! < 24 && mi! < 60 && (s || 0) < 60;
    // Date.parse wants ±hh:mm; ISO 8601 also allows ±hhmm and ±hh.
    const offset =
      iso[8]!.toUpperCase() === 'Z' ? 'Z' : `${iso[8]!.slice(0, 3)}:${iso[8]!.slice(3).replace(':', '') || '00'}`;
    const body = v
      .slice(0, v.length - iso[8]!.length)
      .replace(' ', 'T')
      .replace(',', '.');
    ms = valid ? Date.parse(body + offset) : NaN;
  } else if (/^\d+(\.\d+)?$/.test(v)) {
    const n = Number(v);
    ms = n >= 1e12 ? n : n * 1000;
  }
  if (ms === null || !Number.isFinite(ms)) return { kind: 'unparseable' };
  return inRange(ms, now) ? { kind: 'ok', date: new Date(Math.round(ms)) } : { kind: 'out_of_range' };
}

/** The acceptable range of the intake document §8: from year 2000 up to one day ahead of now. */
export function inRange(ms: number, now = new Date()): boolean {
  return ms >= MIN && ms <= now.getTime() + DAY;
}
