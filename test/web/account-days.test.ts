import { describe, expect, it } from 'vitest';
import { lastThirtyDays } from '../../src/web/components/bulk-reanalysis.tsx';
import { addDays, dayIn, dayRangeInstants, zonedMidnightIso } from '../../src/web/lib/account-days.ts';

const hours = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 3_600_000;

describe("date fields mean days of the account's zone (issue 26)", () => {
  it("turns chosen days into the account's midnights, far from UTC on either side", () => {
    // Auckland is 13 hours ahead in (southern) summer: its 3 March starts on 2 March in UTC.
    expect(dayRangeInstants('2026-03-03', '2026-03-03', 'Pacific/Auckland')).toEqual({
      from: '2026-03-02T11:00:00.000Z',
      to: '2026-03-03T11:00:00.000Z',
    });
    // Los Angeles is 8 hours behind in winter.
    expect(dayRangeInstants('2026-01-10', '2026-01-31', 'America/Los_Angeles')).toEqual({
      from: '2026-01-10T08:00:00.000Z',
      to: '2026-02-01T08:00:00.000Z',
    });
    // An open side stays open.
    expect(dayRangeInstants('2026-01-10', '', 'America/Los_Angeles')).toEqual({
      from: '2026-01-10T08:00:00.000Z',
      to: null,
    });
    expect(dayRangeInstants(null, undefined, 'Pacific/Auckland')).toEqual({ from: null, to: null });
  });

  it('keeps a day whole across a DST change: 23 hours when clocks go forward, 25 when they go back', () => {
    const day = (d: string, zone: string) => dayRangeInstants(d, d, zone);
    // Los Angeles springs forward on 8 March 2026 and falls back on 1 November.
    expect(day('2026-03-08', 'America/Los_Angeles')).toEqual({
      from: '2026-03-08T08:00:00.000Z',
      to: '2026-03-09T07:00:00.000Z',
    });
    expect(day('2026-11-01', 'America/Los_Angeles')).toEqual({
      from: '2026-11-01T07:00:00.000Z',
      to: '2026-11-02T08:00:00.000Z',
    });
    // Auckland falls back on 5 April 2026 and springs forward on 27 September.
    const april = day('2026-04-05', 'Pacific/Auckland');
    expect(april).toEqual({ from: '2026-04-04T11:00:00.000Z', to: '2026-04-05T12:00:00.000Z' });
    expect(hours(april.from!, april.to!)).toBe(25);
    const september = day('2026-09-27', 'Pacific/Auckland');
    expect(september).toEqual({ from: '2026-09-26T12:00:00.000Z', to: '2026-09-27T11:00:00.000Z' });
    expect(hours(september.from!, september.to!)).toBe(23);
    // The days around a change are whole too.
    expect(hours(zonedMidnightIso('2026-04-04', 'Pacific/Auckland'), april.from!)).toBe(24);
    expect(hours(april.to!, zonedMidnightIso('2026-04-07', 'Pacific/Auckland'))).toBe(24);
  });

  it('starts a day with no midnight (clocks jump from 00:00 to 01:00) at the change, as the server does', () => {
    // Santiago springs forward at midnight on 6 September 2026: the day begins at 01:00 (-03), which
    // is where PostgreSQL's `'2026-09-06'::timestamp AT TIME ZONE 'America/Santiago'` puts it too.
    expect(zonedMidnightIso('2026-09-06', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    expect(dayIn(new Date('2026-09-06T04:00:00Z'), 'America/Santiago')).toBe('2026-09-06');
    expect(dayIn(new Date('2026-09-06T03:59:59Z'), 'America/Santiago')).toBe('2026-09-05');
  });

  it("falls back to the browser's midnight without a usable zone", () => {
    expect(zonedMidnightIso('2026-03-03', null)).toBe(new Date(2026, 2, 3).toISOString());
    expect(zonedMidnightIso('2026-03-03', 'Not/AZone')).toBe(new Date(2026, 2, 3).toISOString());
  });

  it("counts today and the template offer's last 30 days in the account's zone", () => {
    // 23:30 UTC on 30 November: already 1 December in Auckland, still 30 November in Los Angeles.
    const now = new Date('2026-11-30T23:30:00Z');
    expect(dayIn(now, 'Pacific/Auckland')).toBe('2026-12-01');
    expect(dayIn(now, 'America/Los_Angeles')).toBe('2026-11-30');
    expect(lastThirtyDays('Pacific/Auckland', now)).toEqual({ dayFrom: '2026-11-01' });
    expect(lastThirtyDays('America/Los_Angeles', now)).toEqual({ dayFrom: '2026-10-31' });
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });
});
