import { describe, expect, it } from 'vitest';
import { axisTicks } from '../../src/web/components/charts.tsx';
import {
  dateLocale,
  durationBetween,
  formatBytes,
  formatClock,
  formatCompact,
  formatDateTime,
  formatDay,
  formatNumber,
  formatTimeZone,
  formatDuration,
  formatHours,
  formatPercent,
  formatPeriod,
  formatRelative,
  formatScore,
  formatStep,
} from '../../src/web/lib/format.ts';

describe('time formatting', () => {
  it('formats player clocks', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(7.9)).toBe('0:07');
    expect(formatClock(65)).toBe('1:05');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(-4)).toBe('0:00');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(formatClock(null)).toBe('0:00');
  });

  it('formats lengths of time for people', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(0.42)).toBe('0.4 s');
    expect(formatDuration(21.6)).toBe('22 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(3720)).toBe('1 h 02 min');
  });

  it('formats processing steps in ms or s', () => {
    expect(formatStep(null)).toBe('—');
    expect(formatStep(102.4)).toBe('102 ms');
    expect(formatStep(8_700)).toBe('8.7 s');
    expect(formatStep(125_000)).toBe('2 min 05 s');
    expect(durationBetween('2024-01-01T00:00:00Z', '2024-01-01T00:00:01.5Z')).toBe(1500);
    expect(durationBetween('2024-01-01T00:00:00Z', null)).toBeNull();
  });

  it('formats relative times in the UI language', () => {
    const now = Date.parse('2024-05-10T12:00:00Z');
    expect(formatRelative('2024-05-10T11:57:00Z', 'en', now)).toBe('3 minutes ago');
    expect(formatRelative('2024-05-10T11:57:00Z', 'es', now)).toBe('hace 3 minutos');
    expect(formatRelative('2024-05-08T12:00:00Z', 'en', now)).toBe('2 days ago');
  });

  it('formats periods', () => {
    expect(formatPeriod('2024-03', 'en')).toBe('March 2024');
    expect(formatPeriod('2024-03', 'es')).toBe('marzo de 2024');
    expect(formatPeriod('garbage', 'en')).toBe('garbage');
  });
});

describe('numbers', () => {
  it('formats bytes, percentages and scores with the locale', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1536, 'es')).toBe('1,5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatPercent(0.521)).toBe('52%');
    expect(formatPercent(null)).toBe('—');
    expect(formatScore(58.333)).toBe('58.3');
    expect(formatScore(58.333, 'es')).toBe('58,3');
    expect(formatScore(null)).toBe('—');
  });
});

describe('the UI language and the account time zone', () => {
  it('writes decimals and percentages the way each language does', () => {
    expect(formatDuration(0.7, 'en')).toBe('0.7 s');
    expect(formatDuration(8, 'en')).toBe('8 s');
    expect(formatDuration(8.04, 'en')).toBe('8.0 s');
    expect(formatDuration(8.04, 'es')).toBe('8,0 s');
    expect(formatStep(4_200, 'es')).toBe('4,2 s');
    expect(formatScore(64.3, 'es')).toBe('64,3');
    expect(formatPercent(0.41, 'en')).toBe('41%');
    // Spanish puts a (non-breaking) space before the sign, everywhere alike.
    expect(formatPercent(0.41, 'es')).toBe('41\u00a0%');
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatNumber(12345, 'es')).toBe('12.345');
  });

  it('abbreviates chart axes in the language', () => {
    expect(formatCompact(1300, 'en')).toBe('1.3K');
    expect(formatCompact(2500, 'es')).toBe('2,5\u00a0mil');
    expect(formatCompact(40, 'es')).toBe('40');
  });

  it('shows times in the account time zone, and says which', () => {
    const at = '2024-07-01T22:30:00Z';
    const opts = { dateStyle: 'medium', timeStyle: 'short' } as const;
    expect(formatDateTime(at, 'en-US', opts, 'Europe/Madrid')).toMatch(/^Jul 2, 2024, 12:30\sAM$/);
    expect(formatDateTime(at, 'es-ES', opts, 'Europe/Madrid')).toBe('2 jul 2024, 0:30');
    expect(formatDateTime(at, 'en-US', opts, 'America/Mexico_City')).toMatch(/^Jul 1, 2024, 4:30\sPM$/);
    // An unknown zone falls back to the browser's rather than failing.
    expect(formatDateTime(at, 'en-US', opts, 'Mars/Olympus')).not.toBe('—');
    expect(formatTimeZone('Europe/Madrid', 'en-US', new Date(at))).toBe('Europe/Madrid (GMT+2)');
    expect(formatTimeZone('America/Mexico_City', 'es-ES', new Date(at))).toBe('America/Mexico City (GMT-6)');
  });
});

describe('waits and axes as people read them (issue 26)', () => {
  it('says a one-minute dispute in minutes, not "0 h"', () => {
    expect(formatHours(1 / 60, 'en')).toBe('1 min');
    expect(formatHours(0.004, 'en')).toBe('< 1 min');
    expect(formatHours(0.75, 'es')).toBe('45 min');
    expect(formatHours(2.5, 'es')).toBe('2,5 h');
    expect(formatHours(24, 'en')).toBe('24 h');
    expect(formatHours(72, 'en')).toBe('3 d');
    expect(formatHours(null, 'en')).toBe('—');
  });

  it('gives count axes whole ticks only, however small the counts', () => {
    for (const max of [1, 2, 3, 4, 7, 12, 37, 140])
      for (const tick of axisTicks(max, true).ticks) expect(Number.isInteger(tick), `${max}: ${tick}`).toBe(true);
    expect(axisTicks(1, true)).toEqual({ nice: 1, ticks: [0, 1] });
    expect(axisTicks(2, true)).toEqual({ nice: 2, ticks: [0, 1, 2] });
    expect(axisTicks(37, true)).toEqual({ nice: 50, ticks: [0, 10, 20, 30, 40, 50] });
    // Minutes and scores keep quarter ticks.
    expect(axisTicks(80, false).ticks).toEqual([0, 25, 50, 75, 100]);
  });
});

describe("dates in the browser's order, in the account's zone (issue 26)", () => {
  const at = '2026-11-03T23:30:00Z';
  it('an en-GB browser reads day/month, an en-US one month/day; Spanish follows es-*; another language falls back', () => {
    expect(dateLocale('en', ['en-GB', 'en'])).toBe('en-GB');
    expect(dateLocale('en', ['es-ES', 'en-US'])).toBe('en-US');
    expect(dateLocale('es', ['es-MX'])).toBe('es-MX');
    // A Spanish UI in an English browser: Spanish dates, not English ones.
    expect(dateLocale('es', ['en-GB'])).toBe('es');
    const short = { dateStyle: 'short', timeStyle: 'short' } as const;
    // 23:30 UTC is already the 4th in Madrid: the zone is the account's, whatever the browser's.
    expect(formatDateTime(at, dateLocale('en', ['en-GB']), short, 'Europe/Madrid')).toBe('04/11/2026, 00:30');
    expect(formatDateTime(at, dateLocale('en', ['en-US']), short, 'Europe/Madrid')).toMatch(/^11\/4\/26, 12:30\sAM$/);
    expect(formatDateTime(at, dateLocale('es', ['es-ES']), short, 'Europe/Madrid')).toBe('4/11/26, 0:30');
  });

  it("writes the dashboard's days in the browser's order, the same day in every zone", () => {
    expect(formatDay('2026-11-04', dateLocale('en', ['en-GB']))).toBe('4 Nov');
    expect(formatDay('2026-11-04', dateLocale('en', ['en-US']))).toBe('Nov 4');
    expect(formatDay('2026-11-04', dateLocale('es', ['es-ES']))).toBe('4 nov');
    expect(formatDay('2026-11-01', dateLocale('en', ['en-GB']), 'longMonth')).toBe('November 2026');
    expect(formatDay('2026-11-01', dateLocale('es', ['es-MX']), 'month')).toMatch(/^nov\.? 2026$/);
    expect(formatDay('not a day', 'en')).toBe('not a day');
  });
});
