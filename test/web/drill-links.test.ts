// The dashboard's drill-down links and the coaching moments, as pure functions (no browser): the
// URL a number opens carries the dashboard's rules, the calls list reads them back into the
// GraphQL filter and the export's query, and buckets cover the days they count.
import { describe, expect, it } from 'vitest';
import { parseMoments } from '../../src/web/components/coaching/moments.ts';
import { parseCallsQuery, toCallFilter, toExportQuery } from '../../src/web/lib/call-filters.ts';
import { bandNarrow, bucketDays, disputeHref, drillHref } from '../../src/web/lib/drill-down.ts';

const F = {
  from: '2026-01-10',
  to: '2026-02-20',
  agent: '',
  campaign: '',
  template: '',
  language: '',
  mismatch: false,
};
const queryOf = (href: string) => parseCallsQuery(href.slice(href.indexOf('?')));

describe('drill-down links', () => {
  it("carry the dashboard's rules: the account's days, scored calls, mismatches left out", () => {
    const q = queryOf(drillHref({ ...F, template: 't1', language: 'es' }));
    expect(toCallFilter(q)).toEqual({
      view: 'ANALYZED',
      dayFrom: '2026-01-10',
      dayTo: '2026-02-20',
      language: 'es',
      templateIds: ['t1'],
      scored: true,
      languageMismatch: false,
    });
    // Including mismatches drops the rule; the export reads the same filter.
    expect(toCallFilter(queryOf(drillHref({ ...F, mismatch: true }))).languageMismatch).toBeUndefined();
    expect(toExportQuery(q)).toContain('dayFrom=2026-01-10&dayTo=2026-02-20');
    expect(toExportQuery(q)).toContain('languageMismatch=false');
  });

  it('narrow to a criterion result, a band, a topic label, a sentiment', () => {
    const crit = toCallFilter(
      queryOf(drillHref(F, { criterion: 'greeting', results: 'failed', criterionCritical: true })),
    );
    expect(crit.criterion).toEqual({ key: 'greeting', results: ['FAILED'], critical: true });
    expect(toCallFilter(queryOf(drillHref(F, bandNarrow(70, 80))))).toMatchObject({ scoreMin: 70, scoreBelow: 80 });
    expect(toCallFilter(queryOf(drillHref(F, bandNarrow(90, 100)))).scoreBelow).toBeUndefined();
    expect(toCallFilter(queryOf(drillHref(F, { topic: 'Billing', exactTopic: true })))).toMatchObject({
      topic: 'Billing',
      exactTopic: true,
    });
    expect(toCallFilter(queryOf(drillHref(F, { sentiment: 'improved' }))).customerSentiment).toBe('IMPROVED');
  });

  it('narrow to the "other topics": every label but the named ones, commas and all, in the list and its export', () => {
    const named = ['Billing', 'Returns, refunds', 'Facturación'];
    const q = queryOf(drillHref(F, { otherTopics: named }));
    expect(toCallFilter(q).otherTopics).toEqual(named);
    const exported = new URLSearchParams(toExportQuery(q));
    expect(exported.getAll('otherTopics')).toEqual(named);
    expect(exported.get('scored')).toBe('true');
    // A hand-edited URL that is not a list of labels is no filter at all.
    expect(toCallFilter(parseCallsQuery('?otherTopics=Billing')).otherTopics).toBeUndefined();
    expect(toCallFilter(parseCallsQuery('?otherTopics=[1]')).otherTopics).toBeUndefined();
  });

  it("move a dispute's days to the dispute and drop the scored rule", () => {
    const f = toCallFilter(queryOf(disputeHref(F, 'still_open', { from: '2026-02-01', to: '2026-02-07' })));
    expect(f.dispute).toEqual({ outcome: 'STILL_OPEN', dayFrom: '2026-02-01', dayTo: '2026-02-07' });
    expect(f.dayFrom).toBeUndefined();
    expect(f.scored).toBeUndefined();
  });

  it("cover a bucket's days within the range (weeks from Monday, whole months)", () => {
    expect(bucketDays('2026-01-05', 'WEEK', F)).toEqual({ from: '2026-01-10', to: '2026-01-11' });
    expect(bucketDays('2026-01-12', 'WEEK', F)).toEqual({ from: '2026-01-12', to: '2026-01-18' });
    expect(bucketDays('2026-02-01', 'MONTH', F)).toEqual({ from: '2026-02-01', to: '2026-02-20' });
    expect(bucketDays('2026-01-01', 'MONTH', { from: '2025-12-01', to: '2026-03-01' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(bucketDays('2026-01-15', 'DAY', F)).toEqual({ from: '2026-01-15', to: '2026-01-15' });
  });
});

describe('coaching moments', () => {
  it('reads m:ss, h:mm:ss and seconds, and refuses anything else', () => {
    expect(parseMoments('0:02, 1:05,1:00:00, 75')).toEqual([2, 65, 3600, 75]);
    expect(parseMoments('')).toEqual([]);
    expect(parseMoments('1:xx')).toBeNull();
    expect(parseMoments('-3')).toBeNull();
  });
});
