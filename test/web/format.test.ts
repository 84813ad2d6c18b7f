import { describe, expect, it } from 'vitest';
import {
  durationBetween,
  formatBytes,
  formatClock,
  formatDuration,
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
