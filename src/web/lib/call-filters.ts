/**
 * The calls list state lives in the URL query so a filtered view can be bookmarked, shared and
 * exported. This module converts between that query, the GraphQL `CallFilter` and the query of
 * `GET /api/calls/export.csv` (same filter names as `CallFilter`, values in lower case).
 */
import type { graphql } from './graphql.ts';

export const VIEWS = ['in_progress', 'analyzed', 'failed'] as const;
export type View = (typeof VIEWS)[number];
export const SORTS = ['started_at', 'score', 'duration'] as const;
export type SortField = (typeof SORTS)[number];
export type SortOrder = 'asc' | 'desc';
export type Direction = 'inbound' | 'outbound';
export const CHECKED_CHANGES = ['stood', 'changed', 'false_fail', 'false_pass'] as const;
export type CheckedChange = (typeof CHECKED_CHANGES)[number];

export interface CallsQuery {
  view: View;
  /**
   * Calendar days (YYYY-MM-DD), both inclusive, in the ACCOUNT's time zone (Session.timeZone): the
   * days the dashboard counts and the list's dates are written in, whatever the browser's zone.
   */
  from: string | null;
  to: string | null;
  /** Agent ids, comma-separated (several may be chosen). */
  agent: string | null;
  /** Campaign ids, comma-separated. */
  campaign: string | null;
  direction: Direction | null;
  scoreMin: number | null;
  scoreMax: number | null;
  topic: string | null;
  language: string | null;
  /** A criterion key that failed. */
  failed: string | null;
  /** Only calls with a critical fail. */
  critical: boolean;
  /** Full-text search in transcripts. */
  q: string | null;
  // The dashboard's drill-down (issue 31.4): what a number there counts, so the list shows exactly
  // those calls. The calls list has no controls for these; a note above the list says they are on.
  /** Template ids, comma-separated. */
  template: string | null;
  /** Only scored calls (analyzed with a score). */
  scored: boolean;
  /** Only calls with a coverage (what an average coverage is computed over). */
  coverage: boolean;
  /** Calls whose language did not match their template: left out or the only ones. */
  mismatch: 'exclude' | 'only' | null;
  /** Score strictly below (a band's upper bound). */
  scoreBelow: number | null;
  /** The topic label only, not its other-language labels. */
  exactTopic: boolean;
  /** Calls with a topic that is none of these labels (the dashboard's "other topics"); a JSON array in the URL. */
  otherTopics: string[] | null;
  /** A criterion key with one of `results` (comma-separated passed, failed, na). */
  criterion: string | null;
  results: string | null;
  /** With `criterion`: only its critical fails. */
  criterionCritical: boolean;
  sentiment: (typeof SENTIMENTS)[number] | null;
  /** Calls with a dispute opened / still open / accepted / rejected within disputeFrom–disputeTo (account days). */
  dispute: (typeof DISPUTES)[number] | null;
  disputeFrom: string | null;
  disputeTo: string | null;
  /** A criterion key a person checked (machine agreement's calls), and what they found. */
  checked: string | null;
  change: CheckedChange | null;
  sort: SortField;
  order: SortOrder;
  /** Cursor pagination: at most one of these. */
  after: string | null;
  before: string | null;
  /** Rows per page (one of PAGE_SIZES). */
  size: number;
  /** The page number shown (1-based); kept by the pager as it moves, reset by any other change. */
  page: number;
  /** The last page: the final `size` rows, without a cursor. */
  tail: boolean;
}

export const PAGE_SIZES = [25, 50, 100] as const;
export const SENTIMENTS = ['measured', 'trend', 'improved', 'worsened'] as const;
export const DISPUTES = ['opened', 'still_open', 'accepted', 'rejected'] as const;
const RESULTS = ['passed', 'failed', 'na'] as const;

export const DEFAULT_QUERY: CallsQuery = {
  view: 'analyzed',
  from: null,
  to: null,
  agent: null,
  campaign: null,
  direction: null,
  scoreMin: null,
  scoreMax: null,
  topic: null,
  language: null,
  failed: null,
  critical: false,
  q: null,
  template: null,
  scored: false,
  coverage: false,
  mismatch: null,
  scoreBelow: null,
  exactTopic: false,
  otherTopics: null,
  criterion: null,
  results: null,
  criterionCritical: false,
  sentiment: null,
  dispute: null,
  disputeFrom: null,
  disputeTo: null,
  checked: null,
  change: null,
  sort: 'started_at',
  order: 'desc',
  after: null,
  before: null,
  size: 25,
  page: 1,
  tail: false,
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function str(p: URLSearchParams, name: string): string | null {
  const v = p.get(name)?.trim();
  return v ? v : null;
}

function day(p: URLSearchParams, name: string): string | null {
  const v = str(p, name);
  return v && DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00`)) ? v : null;
}

function score(p: URLSearchParams, name: string): number | null {
  const v = str(p, name);
  if (v == null) return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 && n <= 100 ? n : null;
}

function oneOf<T extends string>(v: string | null, allowed: readonly T[]): T | null {
  return v != null && (allowed as readonly string[]).includes(v) ? (v as T) : null;
}

function resultList(v: string | null): string | null {
  const list = (v ?? '').split(',').filter((r) => (RESULTS as readonly string[]).includes(r));
  return list.length ? list.join(',') : null;
}

/** A JSON array of labels (labels may hold commas), or null when it is not one. */
function labelList(v: string | null): string[] | null {
  try {
    const list: unknown = JSON.parse(v ?? 'null');
    return Array.isArray(list) && list.length && list.every((l) => typeof l === 'string') ? list : null;
  } catch {
    return null;
  }
}

/** Reads a location's query (`?view=failed&agent=…`); anything malformed falls back to the default. */
export function parseCallsQuery(search: string | URLSearchParams): CallsQuery {
  const p =
    typeof search === 'string' ? new URLSearchParams(search.startsWith('?') ? search.slice(1) : search) : search;
  const after = str(p, 'after');
  return {
    view: oneOf(str(p, 'view'), VIEWS) ?? DEFAULT_QUERY.view,
    from: day(p, 'from'),
    to: day(p, 'to'),
    agent: str(p, 'agent'),
    campaign: str(p, 'campaign'),
    direction: oneOf(str(p, 'direction'), ['inbound', 'outbound'] as const),
    scoreMin: score(p, 'scoreMin'),
    scoreMax: score(p, 'scoreMax'),
    topic: str(p, 'topic'),
    language: str(p, 'language'),
    failed: str(p, 'failed'),
    critical: p.get('critical') === '1',
    q: str(p, 'q'),
    template: str(p, 'template'),
    scored: p.get('scored') === '1',
    coverage: p.get('coverage') === '1',
    mismatch: oneOf(str(p, 'mismatch'), ['exclude', 'only'] as const),
    scoreBelow: score(p, 'scoreBelow'),
    exactTopic: p.get('exactTopic') === '1',
    otherTopics: labelList(str(p, 'otherTopics')),
    criterion: str(p, 'criterion'),
    results: resultList(str(p, 'results')),
    criterionCritical: p.get('criterionCritical') === '1',
    sentiment: oneOf(str(p, 'sentiment'), SENTIMENTS),
    dispute: oneOf(str(p, 'dispute'), DISPUTES),
    disputeFrom: day(p, 'disputeFrom'),
    disputeTo: day(p, 'disputeTo'),
    checked: str(p, 'checked'),
    change: oneOf(str(p, 'change'), CHECKED_CHANGES),
    sort: oneOf(str(p, 'sort'), SORTS) ?? DEFAULT_QUERY.sort,
    order: oneOf(str(p, 'order'), ['asc', 'desc'] as const) ?? DEFAULT_QUERY.order,
    after,
    before: after ? null : str(p, 'before'),
    size: (PAGE_SIZES as readonly number[]).includes(Number(p.get('size')))
      ? Number(p.get('size'))
      : DEFAULT_QUERY.size,
    page: Math.max(1, Math.floor(Number(p.get('page'))) || 1),
    tail: p.get('tail') === '1',
  };
}

/** The filters the list's own controls set (the search box aside), in the URL's order. */
const CONTROL_KEYS = [
  'from',
  'to',
  'agent',
  'campaign',
  'direction',
  'scoreMin',
  'scoreMax',
  'topic',
  'language',
  'failed',
  'critical',
] as const satisfies (keyof CallsQuery)[];

/** What a dashboard number narrows the list by (no control of the list shows it), in the URL's order. */
const DRILL_DOWN_ORDER = [
  'template',
  'scored',
  'coverage',
  'mismatch',
  'scoreBelow',
  'exactTopic',
  'otherTopics',
  'criterion',
  'results',
  'criterionCritical',
  'sentiment',
  'dispute',
  'disputeFrom',
  'disputeTo',
] as const satisfies (keyof CallsQuery)[];

/** Refinements of another drill-down filter (a criterion's results, a dispute's days): not filters of their own. */
const REFINEMENTS = ['results', 'disputeFrom', 'disputeTo'] as const;

const ORDER: (keyof CallsQuery)[] = [
  'view',
  'q',
  ...CONTROL_KEYS,
  ...DRILL_DOWN_ORDER,
  'checked',
  'change',
  'sort',
  'order',
  'size',
  'after',
  'before',
  'page',
  'tail',
];

/** The query string for a state (no leading "?"), leaving out defaults, in a stable order. */
export function serializeCallsQuery(q: CallsQuery): string {
  const p = new URLSearchParams();
  for (const key of ORDER) {
    const v = q[key];
    if (v == null || v === '' || v === DEFAULT_QUERY[key]) continue;
    p.set(key, v === true ? '1' : Array.isArray(v) ? JSON.stringify(v) : String(v));
  }
  return p.toString();
}

/** A new state with some fields changed; any filter or sort change goes back to the first page. */
export function updateCallsQuery(q: CallsQuery, patch: Partial<CallsQuery>): CallsQuery {
  const next = { ...q, ...patch };
  const paging = 'after' in patch || 'before' in patch || 'tail' in patch;
  if (!paging) {
    next.after = null;
    next.before = null;
    next.page = 1;
    next.tail = false;
  }
  return next;
}

/** The drill-down's filters (no control of the list shows them; see drillDownOn). */
export const DRILL_DOWN_KEYS = DRILL_DOWN_ORDER.filter(
  (k): k is Exclude<(typeof DRILL_DOWN_ORDER)[number], (typeof REFINEMENTS)[number]> =>
    !(REFINEMENTS as readonly string[]).includes(k),
);

/** Whether the list carries filters from a dashboard number (shown as a note with a way out). */
export const drillDownOn = (q: CallsQuery) => DRILL_DOWN_KEYS.some((k) => q[k] != null && q[k] !== false);

/** Filters that narrow the list (the view, sort and page are not filters). */
export function activeFilterCount(q: CallsQuery): number {
  const keys: (keyof CallsQuery)[] = [...CONTROL_KEYS, 'q', ...DRILL_DOWN_KEYS, 'checked'];
  return keys.filter((k) => q[k] != null && q[k] !== false).length;
}

export function clearFilters(q: CallsQuery): CallsQuery {
  return { ...DEFAULT_QUERY, view: q.view, sort: q.sort, order: q.order, size: q.size };
}

/**
 * The GraphQL `CallFilter` input, read from the printed schema (graphql-env.d.ts) so a field the
 * server adds or renames reaches the web app's type checks without a hand-kept copy.
 */
export type GqlCallFilter = NonNullable<ReturnType<typeof graphql.scalar<'CallFilter'>>>;

/** The ids of a comma-separated list ("a,b" → ['a', 'b']); empty for none. */
export function idList(v: string | null): string[] {
  return v ? v.split(',').filter(Boolean) : [];
}

/** The GraphQL `CallFilter` of a state (without the view when `withView` is false, for the tab counts). */
export function toCallFilter(q: CallsQuery, withView = true): GqlCallFilter {
  const f: GqlCallFilter = {};
  if (withView) f.view = q.view.toUpperCase() as GqlCallFilter['view'];
  // Days of the account's zone: the server turns them into instants (the browser's midnight was
  // another day's for anyone away from the account's zone).
  if (q.from) f.dayFrom = q.from;
  if (q.to) f.dayTo = q.to;
  if (q.agent) f.agentIds = idList(q.agent);
  if (q.campaign) f.campaignIds = idList(q.campaign);
  if (q.direction) f.direction = q.direction.toUpperCase() as GqlCallFilter['direction'];
  if (q.scoreMin != null) f.scoreMin = q.scoreMin;
  if (q.scoreMax != null) f.scoreMax = q.scoreMax;
  if (q.topic) f.topic = q.topic;
  if (q.language) f.language = q.language;
  if (q.failed) f.failedCriterion = q.failed;
  if (q.critical) f.criticalFail = true;
  if (q.q) f.search = q.q;
  if (q.template) f.templateIds = idList(q.template);
  if (q.scored) f.scored = true;
  if (q.coverage) f.coverageMeasured = true;
  if (q.mismatch) f.languageMismatch = q.mismatch === 'only';
  if (q.scoreBelow != null) f.scoreBelow = q.scoreBelow;
  if (q.exactTopic) f.exactTopic = true;
  if (q.otherTopics) f.otherTopics = q.otherTopics;
  if (q.criterion)
    f.criterion = {
      key: q.criterion,
      results: (q.results ?? 'failed').split(',').map((r) => r.toUpperCase() as 'PASSED'),
      critical: q.criterionCritical || null,
    };
  if (q.sentiment) f.customerSentiment = q.sentiment.toUpperCase() as GqlCallFilter['customerSentiment'];
  if (q.dispute)
    f.dispute = {
      outcome: q.dispute.toUpperCase() as 'OPENED',
      dayFrom: q.disputeFrom ?? '1970-01-01',
      dayTo: q.disputeTo ?? '9999-12-31',
    };
  if (q.checked) f.checkedCriterion = q.checked;
  if (q.checked && q.change) f.checkedChange = q.change.toUpperCase() as GqlCallFilter['checkedChange'];
  return f;
}

/**
 * The query of `GET /api/calls/export.csv` for the current filters and sort (every page). The export
 * always covers the analyzed view (in-progress and failed calls have no results to export).
 */
export function toExportQuery(q: CallsQuery): string {
  const f = toCallFilter(q);
  const p = new URLSearchParams();
  if (q.agent) p.set('agentIds', q.agent);
  if (q.campaign) p.set('campaignIds', q.campaign);
  if (q.direction) p.set('direction', q.direction);
  if (q.scoreMin != null) p.set('scoreMin', String(q.scoreMin));
  if (q.scoreMax != null) p.set('scoreMax', String(q.scoreMax));
  if (q.topic) p.set('topic', q.topic);
  if (q.language) p.set('language', q.language);
  if (q.failed) p.set('failedCriterion', q.failed);
  if (q.critical) p.set('criticalFail', 'true');
  if (q.q) p.set('search', q.q);
  if (f.dayFrom) p.set('dayFrom', f.dayFrom);
  if (f.dayTo) p.set('dayTo', f.dayTo);
  if (q.template) p.set('templateIds', q.template);
  if (q.scored) p.set('scored', 'true');
  if (q.coverage) p.set('coverageMeasured', 'true');
  if (f.languageMismatch != null) p.set('languageMismatch', String(f.languageMismatch));
  if (q.scoreBelow != null) p.set('scoreBelow', String(q.scoreBelow));
  if (q.exactTopic) p.set('exactTopic', 'true');
  for (const label of q.otherTopics ?? []) p.append('otherTopics', label);
  if (f.criterion) {
    p.set('criterion', f.criterion.key);
    p.set('criterionResults', f.criterion.results.join(',').toLowerCase());
    if (f.criterion.critical) p.set('criterionCritical', 'true');
  }
  if (q.sentiment) p.set('customerSentiment', q.sentiment);
  if (f.dispute) {
    p.set('disputeOutcome', q.dispute as string);
    p.set('disputeFrom', f.dispute.dayFrom);
    p.set('disputeTo', f.dispute.dayTo);
  }
  if (q.checked) p.set('checkedCriterion', q.checked);
  if (q.checked && q.change) p.set('checkedChange', q.change);
  p.set('sort', q.sort);
  p.set('order', q.order);
  return p.toString();
}

export function exportUrl(q: CallsQuery): string {
  return `/api/calls/export.csv?${toExportQuery(q)}`;
}

/** The GraphQL paging arguments of a state. */
export function pagingOf(q: CallsQuery): { first?: number; last?: number; after?: string | null; before?: string } {
  if (q.tail) return { last: q.size };
  if (q.before) return { last: q.size, before: q.before };
  return { first: q.size, after: q.after };
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}
