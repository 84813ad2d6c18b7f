/**
 * The one place numbers, percentages, durations and dates are turned into text: `Intl` in the UI
 * language (decimals "8,0 s" and "64,3" in Spanish, "41 %" with its space), and dates in the
 * ACCOUNT's time zone (the CSV export's and the usage period's clock), never silently the browser's.
 * Pure functions, unit-tested without a browser, plus `useFormat()` bound to the UI language and
 * the account's time zone for pages.
 */
import { createContext, useContext, useMemo } from 'react';
import { useT } from '../i18n/index.tsx';

/** Seconds as a clock: 0:07, 1:05, 1:02:03. Negative or non-finite values read as 0:00. */
export function formatClock(seconds: number | null | undefined): string {
  const s = seconds != null && Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

/** A number with exactly `digits` decimals, in the locale ("8.0" / "8,0"). */
function fixed(n: number, locale: string, digits: number): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
}

/** A length of time for people: "45 s", "3 min 05 s", "1 h 02 min"; under 10 s one decimal ("0,4 s" in Spanish). */
export function formatDuration(seconds: number | null | undefined, locale = 'en'): string {
  if (seconds == null || !Number.isFinite(seconds)) return '—';
  if (seconds < 0) seconds = 0;
  if (seconds < 10 && seconds % 1 !== 0) return `${fixed(seconds, locale, 1)} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/**
 * A waiting time given in hours, in the unit that reads best: "1 min", "45 min", "2,5 h", "3 d".
 * (A one-minute answer read "0 h" when hours were the only unit.)
 */
export function formatHours(hours: number | null | undefined, locale = 'en'): string {
  if (hours == null || !Number.isFinite(hours)) return '—';
  const minutes = Math.max(0, hours * 60);
  if (minutes < 1) return '< 1 min';
  if (minutes < 60) return `${Math.round(minutes)} min`;
  if (hours < 48) return `${formatNumber(hours, locale, hours < 10 ? 1 : 0)} h`;
  return `${formatNumber(hours / 24, locale, 0)} d`;
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

/** Chart axes and counters: "1.3K" / "1,3 mil", "2.5M" / "2,5 M". */
export function formatCompact(n: number | null | undefined, locale = 'en'): string {
  if (n == null || !Number.isFinite(n)) return '—';
  return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
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

/** A valid IANA zone, else undefined (Intl then uses the browser's). */
function zone(timeZone: string | null | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

export function formatDateTime(
  iso: string | null | undefined,
  locale = 'en',
  opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
  timeZone?: string | null,
): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat(locale, { ...opts, timeZone: zone(timeZone) }).format(d);
}

export function formatDate(iso: string | null | undefined, locale = 'en', timeZone?: string | null): string {
  return formatDateTime(iso, locale, { dateStyle: 'medium' }, timeZone);
}

/** A time zone as people read it: "Europe/Madrid (CET)" / "Europe/Madrid (CET)"; the short name in the locale. */
export function formatTimeZone(timeZone: string | null | undefined, locale = 'en', at = new Date()): string {
  const tz = zone(timeZone);
  if (!tz) return timeZone ?? '—';
  const short = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return short && short !== tz ? `${tz.replace(/_/g, ' ')} (${short})` : tz.replace(/_/g, ' ');
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

/**
 * A calendar day ("2026-11-04", already a day of the account's zone, like the reports' periods) as a
 * short label: "4 Nov" in an en-GB browser, "Nov 4" in an en-US one; `month` writes its month
 * ("November 2026"). Read at UTC so the day never shifts with a zone.
 */
export function formatDay(day: string, locale = 'en', style: 'day' | 'month' | 'longMonth' = 'day'): string {
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  const opts: Intl.DateTimeFormatOptions =
    style === 'day'
      ? { day: 'numeric', month: 'short' }
      : { month: style === 'month' ? 'short' : 'long', year: 'numeric' };
  return new Intl.DateTimeFormat(locale, { ...opts, timeZone: 'UTC' }).format(d);
}

/** Milliseconds between two instants, formatted; null when either is missing. */
export function durationBetween(fromIso: string, toIso: string | null | undefined): number | null {
  if (!toIso) return null;
  const ms = new Date(toIso).getTime() - new Date(fromIso).getTime();
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
}

/** A step's length: "120 ms", "4.2 s" / "4,2 s", "3 min 05 s". */
export function formatStep(ms: number | null, locale = 'en'): string {
  if (ms == null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return formatDuration(ms / 1000, locale);
}

/** The account's time zone (Account.timeZone), provided by the app shell; null outside it. */
export const AccountTimeZoneContext = createContext<string | null>(null);

/**
 * The locale dates are written in: the browser's own for the UI language (an en-GB browser reads
 * 27/11/2026, an en-US one 11/27/2026, es-MX and es-ES their own), else the UI language's default.
 * Numbers stay in the UI language; only the order and words of dates follow the browser.
 */
export function dateLocale(uiLocale: string, browser: readonly string[] = browserLanguages()): string {
  const base = uiLocale.toLowerCase().split('-')[0];
  for (const tag of browser) {
    if (tag.toLowerCase().split('-')[0] !== base) continue;
    try {
      return new Intl.DateTimeFormat(tag).resolvedOptions().locale;
    } catch {
      // An unusable tag: try the next.
    }
  }
  return uiLocale;
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/**
 * The formatters bound to the UI language and the account's time zone. Every time the app shows
 * goes through `dateTime` / `date` here: in the account's zone, in the browser's date order.
 */
export function useFormat() {
  const { locale } = useT();
  const timeZone = useContext(AccountTimeZoneContext);
  const dates = useMemo(() => dateLocale(locale), [locale]);
  return useMemo(
    () => ({
      locale,
      timeZone,
      number: (n: number | null | undefined, digits = 0) => formatNumber(n, locale, digits),
      compact: (n: number | null | undefined) => formatCompact(n, locale),
      percent: (f: number | null | undefined, digits = 0) => formatPercent(f, locale, digits),
      score: (n: number | null | undefined) => formatScore(n, locale),
      duration: (s: number | null | undefined) => formatDuration(s, locale),
      step: (ms: number | null) => formatStep(ms, locale),
      bytes: (b: number | null | undefined) => formatBytes(b, locale),
      dateTime: (iso: string | null | undefined, opts?: Intl.DateTimeFormatOptions) =>
        formatDateTime(iso, dates, opts, timeZone),
      date: (iso: string | null | undefined) => formatDate(iso, dates, timeZone),
      day: (day: string, style?: 'day' | 'month' | 'longMonth') => formatDay(day, dates, style),
      relative: (iso: string | null | undefined) => formatRelative(iso, locale),
      zone: () => formatTimeZone(timeZone, locale),
    }),
    [locale, dates, timeZone],
  );
}
