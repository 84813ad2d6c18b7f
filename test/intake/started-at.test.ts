// §2 `started_at` forms and §8 acceptable range.
import { describe, expect, it } from 'vitest';
import { parseStartedAt } from '../../src/intake/started-at.ts';

const now = new Date('2026-06-01T12:00:00Z');
const p = (v: string) => parseStartedAt(v, now);

describe('started_at', () => {
  it('ISO 8601 with a UTC offset (Z, ±hh:mm, ±hhmm, fractions)', () => {
    expect(p('2024-05-06T12:00:00+02:00')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00Z') });
    expect(p('2024-05-06T10:00:00.250Z')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00.250Z') });
    expect(p('2024-05-06T05:00:00-0500')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00Z') });
  });

  it('ISO 8601 without an offset is not understood (its instant would be a guess)', () => {
    expect(p('2024-05-06T10:00:00').kind).toBe('unparseable');
    expect(p('2024-05-06').kind).toBe('unparseable');
  });

  it('ISO 8601 basic form (20240506T100000Z, ±hhmm, fractions)', () => {
    expect(p('20240506T100000Z')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00Z') });
    expect(p('20240506T120000+0200')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00Z') });
    expect(p('20240506T1000Z')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00Z') });
    expect(p('20240506T100000,5-01')).toEqual({ kind: 'ok', date: new Date('2024-05-06T11:00:00.500Z') });
    expect(p('20240230T100000Z').kind).toBe('unparseable');
    expect(p('20240506T100000').kind).toBe('unparseable');
  });

  it('Unix seconds and Unix milliseconds', () => {
    expect(p('1714989600')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00Z') });
    expect(p('1714989600000')).toEqual({ kind: 'ok', date: new Date('2024-05-06T10:00:00Z') });
    // Milliseconds of 2000–2001 are below 10^12 and still read as milliseconds, not as seconds of year 32,000.
    expect(p('959817600000')).toEqual({ kind: 'ok', date: new Date('2000-06-01T00:00:00Z') });
  });

  it('impossible calendar dates and words are unparseable', () => {
    expect(p('2024-02-30T10:00:00Z').kind).toBe('unparseable');
    expect(p('tomorrow').kind).toBe('unparseable');
    expect(p('').kind).toBe('unparseable');
  });

  it('range: from year 2000 up to one day ahead of now', () => {
    expect(p('1999-12-31T23:59:59Z').kind).toBe('out_of_range');
    expect(p('2000-01-01T00:00:00Z').kind).toBe('ok');
    expect(p('2026-06-02T11:59:00Z').kind).toBe('ok');
    expect(p('2026-06-02T12:01:00Z').kind).toBe('out_of_range');
    expect(p('100').kind).toBe('out_of_range');
  });
});

describe('started_at offsets in every ISO 8601 form', () => {
  it('±hh (hours only) is an offset too', () => {
    expect(p('2024-01-15T10:30:00+01')).toEqual({ kind: 'ok', date: new Date('2024-01-15T09:30:00Z') });
  });
});
