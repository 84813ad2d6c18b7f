/** Formatting helpers shared by pages; pure so they are unit-tested without a browser. */

/** Seconds as a clock: 0:07, 1:05, 1:02:03. Negative or non-finite values read as 0:00. */
export function formatClock(seconds: number | null | undefined): string {
  const s = seconds != null && Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

/** A length of time for people: "45 s", "3 min 05 s", "1 h 02 min"; sub-second values keep one decimal. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return '—';
  if (seconds < 0) seconds = 0;
  if (seconds < 10 && seconds % 1 !== 0) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** Bytes with binary units: 512 B, 1.5 KB, 20 MB, 1.2 GB. */
export function formatBytes(bytes: number | null | undefined, locale = 'en'): string {
  if (bytes == null || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = Math.max(0, bytes);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const digits = i === 0 || v >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(v)} ${units[i]}`;
}

export function formatNumber(n: number | null | undefined, locale = 'en', digits = 0): string {
  if (n == null || !Number.isFinite(n)) return '—';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(n);
}

/** A fraction 0–1 as a percentage. */
export function formatPercent(fraction: number | null | undefined, locale = 'en', digits = 0): string {
  if (fraction == null || !Number.isFinite(fraction)) return '—';
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: digits }).format(fraction);
}

/** A 0–100 score with at most one decimal ("—" when there is none). */
export function formatScore(score: number | null | undefined, locale = 'en'): string {
  if (score == null || !Number.isFinite(score)) return '—';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(score);
}

export function formatDateTime(
  iso: string | null | undefined,
  locale = 'en',
  opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat(locale, opts).format(d);
}

export function formatDate(iso: string | null | undefined, locale = 'en'): string {
  return formatDateTime(iso, locale, { dateStyle: 'medium' });
}

/** "3 minutes ago" / "hace 3 minutos", using the largest fitting unit. */
export function formatRelative(iso: string | null | undefined, locale = 'en', now = Date.now()): string {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '—';
  const diff = (t - now) / 1000;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(diff);
  if (abs < 45) return rtf.format(Math.round(diff), 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(diff / 3600), 'hour');
  if (abs < 26 * 86400) return rtf.format(Math.round(diff / 86400), 'day');
  if (abs < 320 * 86400) return rtf.format(Math.round(diff / (30 * 86400)), 'month');
  return rtf.format(Math.round(diff / (365 * 86400)), 'year');
}

/** "2024-03" → "March 2024" / "marzo de 2024". */
export function formatPeriod(period: string, locale = 'en', style: 'long' | 'short' = 'long'): string {
  const m = /^(\d{4})-(\d{2})$/.exec(period);
  if (!m) return period;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 15));
  return new Intl.DateTimeFormat(locale, { month: style, year: 'numeric', timeZone: 'UTC' }).format(d);
}

/** Milliseconds between two instants, formatted; null when either is missing. */
export function durationBetween(fromIso: string, toIso: string | null | undefined): number | null {
  if (!toIso) return null;
  const ms = new Date(toIso).getTime() - new Date(fromIso).getTime();
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
}

/** A step's length: "120 ms", "4.2 s", "3 min 05 s". */
export function formatStep(ms: number | null): string {
  if (ms == null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return formatDuration(ms / 1000);
}
