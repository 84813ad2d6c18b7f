import { filterFromQuery } from '../../src/export/filter-params.ts';
import { presetOf, presetRange } from '../../src/web/components/DateRange.tsx';
import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  clearFilters,
  DEFAULT_QUERY,
  exportUrl,
  parseCallsQuery,
  serializeCallsQuery,
  toCallFilter,
  toExportQuery,
  updateCallsQuery,
} from '../../src/web/lib/call-filters.ts';

const AGENT = '3f2b8a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

describe('calls list state ↔ URL query', () => {
  it('an empty query is the default view (analyzed, newest first)', () => {
    expect(parseCallsQuery('')).toEqual(DEFAULT_QUERY);
    expect(serializeCallsQuery(DEFAULT_QUERY)).toBe('');
  });

  it('round-trips every filter, leaving defaults out', () => {
    const q = {
      ...DEFAULT_QUERY,
      view: 'failed' as const,
      from: '2024-03-01',
      to: '2024-03-31',
      agent: AGENT,
      direction: 'inbound' as const,
      scoreMin: 40,
      scoreMax: 80.5,
      topic: 'billing',
      language: 'es',
      q: '"le atiende" -idiota',
      sort: 'score' as const,
      order: 'asc' as const,
    };
    const s = serializeCallsQuery(q);
    expect(s).not.toContain('after');
    expect(parseCallsQuery(`?${s}`)).toEqual(q);
    expect(s.startsWith('view=failed&q=')).toBe(true);
  });

  it('ignores malformed values instead of failing', () => {
    const q = parseCallsQuery(
      'view=everything&from=2024-13-45&to=yesterday&scoreMin=-3&scoreMax=abc&direction=sideways&sort=name&order=up',
    );
    expect(q).toEqual(DEFAULT_QUERY);
  });

  it('keeps only one pagination cursor', () => {
    expect(parseCallsQuery('after=A&before=B')).toMatchObject({ after: 'A', before: null });
    expect(parseCallsQuery('before=B')).toMatchObject({ after: null, before: 'B' });
  });

  it('a filter or sort change returns to the first page; paging keeps the filters', () => {
    const paged = { ...DEFAULT_QUERY, agent: AGENT, after: 'CURSOR' };
    expect(updateCallsQuery(paged, { topic: 'billing' })).toMatchObject({
      agent: AGENT,
      topic: 'billing',
      after: null,
      before: null,
    });
    expect(updateCallsQuery(paged, { sort: 'duration' })).toMatchObject({ after: null });
    expect(updateCallsQuery(paged, { after: 'NEXT' })).toMatchObject({ agent: AGENT, after: 'NEXT' });
  });

  it('counts and clears filters but keeps the view and sort', () => {
    const q = {
      ...DEFAULT_QUERY,
      view: 'failed' as const,
      sort: 'duration' as const,
      q: 'x',
      agent: AGENT,
      scoreMin: 0,
    };
    expect(activeFilterCount(q)).toBe(3);
    expect(clearFilters(q)).toEqual({ ...DEFAULT_QUERY, view: 'failed', sort: 'duration' });
  });
});

describe('GraphQL filter and export link', () => {
  it('builds the CallFilter input with GraphQL enum values', () => {
    const q = parseCallsQuery(`view=in_progress&agent=${AGENT}&direction=outbound&scoreMin=0&q=factura`);
    expect(toCallFilter(q)).toEqual({
      view: 'IN_PROGRESS',
      agentIds: [AGENT],
      direction: 'OUTBOUND',
      scoreMin: 0,
      search: 'factura',
    });
    expect(toCallFilter(q, false)).not.toHaveProperty('view');
  });

  it('links the export with the CallFilter parameter names the export endpoint reads', () => {
    const q = parseCallsQuery(
      `from=2024-03-01&agent=${AGENT}&campaign=c1&direction=inbound&scoreMax=60&topic=billing&language=es&q=refund`,
    );
    const p = new URLSearchParams(toExportQuery(q));
    expect(p.get('dayFrom')).toBe('2024-03-01');
    expect(p.get('dayTo')).toBeNull();
    expect(p.get('startedFrom')).toBeNull();
    expect(p.getAll('agentIds')).toEqual([AGENT]);
    expect(p.getAll('campaignIds')).toEqual(['c1']);
    expect(p.get('direction')).toBe('inbound');
    expect(p.get('scoreMax')).toBe('60');
    expect(p.get('scoreMin')).toBeNull();
    expect(p.get('topic')).toBe('billing');
    expect(p.get('language')).toBe('es');
    expect(p.get('search')).toBe('refund');
    expect(exportUrl(q)).toMatch(/^\/api\/calls\/export\.csv\?/);
  });

  it('carries several agents and campaigns, a failed criterion and critical fails through the URL, the API and the export', () => {
    const B = '00000000-0000-4000-8000-0000000000bb';
    const q = parseCallsQuery(`agent=${AGENT},${B}&campaign=c1&failed=greeting&critical=1`);
    expect(q).toMatchObject({ agent: `${AGENT},${B}`, failed: 'greeting', critical: true });
    expect(activeFilterCount(q)).toBe(4);
    expect(activeFilterCount(DEFAULT_QUERY)).toBe(0);
    expect(parseCallsQuery(serializeCallsQuery(q))).toEqual(q);
    expect(toCallFilter(q)).toMatchObject({
      agentIds: [AGENT, B],
      campaignIds: ['c1'],
      failedCriterion: 'greeting',
      criticalFail: true,
    });
    const p = new URLSearchParams(toExportQuery(q));
    expect(p.get('agentIds')).toBe(`${AGENT},${B}`);
    expect(p.get('failedCriterion')).toBe('greeting');
    expect(p.get('criticalFail')).toBe('true');
    expect(clearFilters(q)).toMatchObject({ agent: null, failed: null, critical: false });
  });

  it('carries the machine-agreement filter (a criterion a person checked, and what they found) through the URL, the API and the export', () => {
    const q = parseCallsQuery('from=2024-03-01&checked=greeting&change=false_fail');
    expect(q).toMatchObject({ checked: 'greeting', change: 'false_fail' });
    expect(activeFilterCount(q)).toBe(2);
    expect(parseCallsQuery(serializeCallsQuery(q))).toEqual(q);
    expect(toCallFilter(q)).toMatchObject({ checkedCriterion: 'greeting', checkedChange: 'FALSE_FAIL' });
    const p = new URLSearchParams(toExportQuery(q));
    expect(p.get('checkedCriterion')).toBe('greeting');
    expect(p.get('checkedChange')).toBe('false_fail');
    expect(filterFromQuery(p)).toMatchObject({ checkedCriterion: 'greeting', checkedChange: 'false_fail' });
    // An unknown change is the user's mistake, not a silent "any".
    expect(parseCallsQuery('checked=greeting&change=sideways').change).toBeNull();
    expect(() => filterFromQuery(new URLSearchParams('checkedCriterion=greeting&checkedChange=sideways'))).toThrow(
      /checkedChange/,
    );
    expect(clearFilters(q)).toMatchObject({ checked: null, change: null });
  });
});

describe("the list's days are the account's days", () => {
  it('sends a chosen range as account-zone days to the list, its counts and the export, never as browser midnights', () => {
    const q = parseCallsQuery('from=2026-03-29&to=2026-03-30');
    expect(toCallFilter(q)).toEqual({ view: 'ANALYZED', dayFrom: '2026-03-29', dayTo: '2026-03-30' });
    expect(toCallFilter(q, false)).toEqual({ dayFrom: '2026-03-29', dayTo: '2026-03-30' });
    const p = new URLSearchParams(toExportQuery(q));
    expect(filterFromQuery(p)).toMatchObject({ dayFrom: '2026-03-29', dayTo: '2026-03-30' });
    expect(filterFromQuery(p).startedFrom ?? null).toBeNull();
    // A bookmark from the drill-down (accountDays=1) means the same days and stays readable.
    expect(toCallFilter(parseCallsQuery('from=2026-03-29&to=2026-03-30&accountDays=1'))).toEqual(toCallFilter(q));
    expect(serializeCallsQuery(parseCallsQuery('from=2026-03-29&accountDays=1'))).toBe('from=2026-03-29');
  });

  it("counts the range presets from today in the account's zone, not the browser's", () => {
    // 23:30 UTC on 30 November: already 1 December in Tokyo, still 30 November in Los Angeles.
    const now = new Date('2026-11-30T23:30:00Z');
    expect(presetRange('today', now, 'Asia/Tokyo')).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    expect(presetRange('today', now, 'America/Los_Angeles')).toEqual({ from: '2026-11-30', to: '2026-11-30' });
    expect(presetRange('last7', now, 'Asia/Tokyo')).toEqual({ from: '2026-11-25', to: '2026-12-01' });
    expect(presetRange('last30', now, 'America/Los_Angeles')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetRange('thisMonth', now, 'Asia/Tokyo')).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    expect(presetRange('thisMonth', now, 'America/Los_Angeles')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    // A bookmarked "today" reads as such in the account's zone.
    expect(presetOf('2026-12-01', '2026-12-01', now, 'Asia/Tokyo')).toBe('today');
    expect(presetOf('2026-12-01', '2026-12-01', now, 'America/Los_Angeles')).toBe('custom');
  });
});
