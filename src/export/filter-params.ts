import { isUuid } from '../accounts/api-keys.ts';
import type { CallFilter } from '../calls/calls-query.ts';
import {
  CHECKED_CHANGES,
  type CheckedChange,
  CUSTOMER_SENTIMENT_FILTERS,
  DISPUTE_OUTCOMES,
  type DisputeOutcome,
} from '../calls/calls-filter.ts';
import { DomainError } from '../domain/errors.ts';
import { assertCleanText } from '../domain/text.ts';

/**
 * Reads the export's filter from a query string. Parameter names are those of the GraphQL
 * `CallFilter` input (startedFrom, startedTo, agentIds, campaignIds, direction, scoreMin, scoreMax,
 * topic, language, failedCriterion, criticalFail, search, checkedCriterion, checkedChange), so the web app can turn the filter it already holds into the link.
 * Id lists may repeat the parameter or be comma-separated.
 *
 * The export is always the app's "analyzed" view (analyzed + transcribed-not-analyzed): calls in
 * progress or failed have nothing to export, so `view` is not a parameter.
 */
export function filterFromQuery(q: URLSearchParams): CallFilter {
  // Checked before any query runs: a NUL reaching PostgreSQL would cut the download mid-stream.
  for (const [name, value] of q) assertCleanText(value, name);
  const one = (name: string) => {
    const v = q.get(name)?.trim();
    return v ? v : null;
  };
  const search = one('search');
  if (search && search.length > 500)
    throw new DomainError('invalid_search', 'Search text can have at most 500 characters.');
  const direction = one('direction')?.toLowerCase() ?? null;
  const checkedChange = one('checkedChange')?.toLowerCase() ?? null;
  if (checkedChange && !(CHECKED_CHANGES as readonly string[]).includes(checkedChange))
    throw invalid('checkedChange', CHECKED_CHANGES.join(', '));
  if (direction && direction !== 'inbound' && direction !== 'outbound')
    throw invalid('direction', 'inbound or outbound');
  return {
    view: 'analyzed',
    startedFrom: date(one('startedFrom'), 'startedFrom'),
    startedTo: date(one('startedTo'), 'startedTo'),
    agentIds: ids(q.getAll('agentIds')),
    campaignIds: ids(q.getAll('campaignIds')),
    direction: direction as CallFilter['direction'],
    scoreMin: score(one('scoreMin'), 'scoreMin'),
    scoreMax: score(one('scoreMax'), 'scoreMax'),
    topic: one('topic'),
    language: one('language')?.toLowerCase() ?? null,
    failedCriterion: one('failedCriterion'),
    criticalFail: bool(one('criticalFail'), 'criticalFail'),
    search,
    checkedCriterion: one('checkedCriterion'),
    checkedChange: checkedChange as CheckedChange | null,
    ...drillDown(q, one),
  };
}

/**
 * The dashboard's drill-down filters (issue 31.4), under the GraphQL names; the criterion and the
 * dispute are flattened: `criterion`, `criterionResults` (comma-separated), `criterionCritical`;
 * `disputeOutcome`, `disputeFrom`, `disputeTo`.
 */
function drillDown(q: URLSearchParams, one: (name: string) => string | null): Partial<CallFilter> {
  const key = one('criterion');
  const results = (one('criterionResults') ?? 'failed').split(',').map((r) => r.trim().toLowerCase());
  if (results.some((r) => !(['passed', 'failed', 'na'] as string[]).includes(r)))
    throw invalid('criterionResults', 'passed, failed or na (comma-separated)');
  const sentiment = one('customerSentiment')?.toLowerCase() ?? null;
  if (sentiment && !(CUSTOMER_SENTIMENT_FILTERS as readonly string[]).includes(sentiment))
    throw invalid('customerSentiment', CUSTOMER_SENTIMENT_FILTERS.join(', '));
  const outcome = one('disputeOutcome')?.toLowerCase() ?? null;
  if (outcome && !(DISPUTE_OUTCOMES as readonly string[]).includes(outcome))
    throw invalid('disputeOutcome', DISPUTE_OUTCOMES.join(', '));
  const scoreBelow = score(one('scoreBelow'), 'scoreBelow');
  return {
    templateIds: ids(q.getAll('templateIds')),
    dayFrom: day(one('dayFrom'), 'dayFrom'),
    dayTo: day(one('dayTo'), 'dayTo'),
    scored: bool(one('scored'), 'scored'),
    coverageMeasured: bool(one('coverageMeasured'), 'coverageMeasured'),
    languageMismatch: bool(one('languageMismatch'), 'languageMismatch'),
    scoreBelow,
    exactTopic: bool(one('exactTopic'), 'exactTopic'),
    otherTopics: q.getAll('otherTopics').length ? q.getAll('otherTopics') : null,
    criterion: key
      ? {
          key,
          results: results as ('passed' | 'failed' | 'na')[],
          critical: bool(one('criterionCritical'), 'criterionCritical'),
        }
      : null,
    customerSentiment: sentiment as CallFilter['customerSentiment'],
    dispute: outcome
      ? {
          outcome: outcome as DisputeOutcome,
          dayFrom: day(one('disputeFrom'), 'disputeFrom') ?? '1970-01-01',
          dayTo: day(one('disputeTo'), 'disputeTo') ?? '9999-12-31',
        }
      : null,
  };
}

function day(v: string | null, name: string): string | null {
  if (!v) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    throw invalid(name, 'a day written YYYY-MM-DD');
  return v;
}

const invalid = (name: string, expected: string) => new DomainError('bad_request', `\`${name}\` must be ${expected}.`);

// As the GraphQL DateTime input: an ISO 8601 instant, with its offset so the server's own time
// zone never decides. A bare date is UTC midnight.
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/i;

function date(v: string | null, name: string): Date | null {
  if (!v) return null;
  const d = INSTANT.test(v) ? new Date(v) : new Date(Number.NaN);
  if (Number.isNaN(d.getTime())) throw invalid(name, 'an ISO 8601 date-time such as 2024-03-01T00:00:00Z');
  return d;
}

function bool(v: string | null, name: string): boolean | null {
  if (v == null) return null;
  if (v === 'true' || v === 'false') return v === 'true';
  throw invalid(name, 'true or false');
}

function score(v: string | null, name: string): number | null {
  if (v == null) return null;
  const n = Number(v);
  if (!Number.isFinite(n)) throw invalid(name, 'a number from 0 to 100');
  return n;
}

// As in the GraphQL filter: foreign or malformed ids match nothing rather than reveal anything.
function ids(values: string[]): string[] | null {
  const list = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return list.length ? list.filter(isUuid) : null;
}
