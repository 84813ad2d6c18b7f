import { Prisma } from '../generated/prisma/client.ts';
import type { CallDirection } from '../generated/prisma/client.ts';
import type { CriterionOutcome } from '../call-columns.ts';
import { CALL_VIEWS, type CallView } from '../lifecycle/statuses.ts';
import { searchTsquery } from './calls-search.ts';

export { CALL_VIEWS, type CallView, viewOf } from '../lifecycle/statuses.ts';

export interface CallFilter {
  view?: CallView | null;
  startedFrom?: Date | null;
  startedTo?: Date | null;
  agentIds?: string[] | null;
  campaignIds?: string[] | null;
  direction?: CallDirection | null;
  scoreMin?: number | null;
  scoreMax?: number | null;
  /** A topic label as shown on calls; labels of the same topic key in other templates match too. */
  topic?: string | null;
  language?: string | null;
  /** A criterion key that failed on the call (any template's criterion with that key). */
  failedCriterion?: string | null;
  /** Only calls where a critical criterion failed (true) or none did (false). */
  criticalFail?: boolean | null;
  /** Web-search syntax ("quoted phrase", -word, or) over the transcript, accent- and case-insensitive. */
  search?: string | null;
  // What the dashboard counts by (issue 31.4): a number there opens the calls list with these, so
  // the list's count is the number's. Each mirrors a rule of the rollups (prisma/sql/definitions.sql).
  /** Templates that scored the call; NONE_ID stands for "no template". */
  templateIds?: string[] | null;
  /** Calendar days (YYYY-MM-DD), both inclusive, in the ACCOUNT's time zone (the dashboard's days). */
  dayFrom?: string | null;
  dayTo?: string | null;
  /** Only scored calls (status analyzed with a score): the calls every dashboard number counts. */
  scored?: boolean | null;
  /** Only calls with a coverage: the calls an average coverage is computed over (report_days.coverage_calls). */
  coverageMeasured?: boolean | null;
  /** false: leave out calls whose language did not match their template's; true: only those. */
  languageMismatch?: boolean | null;
  /** Score strictly below (a band's exclusive upper bound). */
  scoreBelow?: number | null;
  /** Only the exact topic label, without its other-language labels (the dashboard counts labels). */
  exactTopic?: boolean | null;
  /** Calls with a topic that is none of these labels: the dashboard's "other topics" (report_topic_days has no null topic). */
  otherTopics?: string[] | null;
  /** A criterion key whose result on the call is one of `results` (and, with `critical`, a critical fail). */
  criterion?: { key: string; results: CriterionOutcome[]; critical?: boolean | null } | null;
  /** measured: has a customer sentiment; trend: has a customer trend; improved/worsened: ended ≥ 0.1 better/worse. */
  customerSentiment?: CustomerSentimentFilter | null;
  /** Calls with a dispute opened, still open, accepted or rejected within the days (account time zone). */
  dispute?: { outcome: DisputeOutcome; dayFrom: string; dayTo: string } | null;
  /** Calls on which a person checked this criterion's verdict (src/calibration/machine-agreement.ts). */
  checkedCriterion?: string | null;
  /** With `checkedCriterion`: only where the machine's verdict stood, was changed, or was a false fail / pass. */
  checkedChange?: CheckedChange | null;
  /**
   * Not a user's filter: leaves out these calls — those the viewer grades blind in an open
   * calibration (src/calibration/read.ts `blindFilter` sets it only for users who hold such a seat).
   */
  excludeCallIds?: readonly string[] | null;
}

export const CHECKED_CHANGES = ['stood', 'changed', 'false_fail', 'false_pass'] as const;
export type CheckedChange = (typeof CHECKED_CHANGES)[number];
const CHANGE_SQL: Record<CheckedChange, Prisma.Sql> = {
  stood: Prisma.sql`AND h.machine = h.human`,
  changed: Prisma.sql`AND h.machine IS DISTINCT FROM h.human`,
  false_fail: Prisma.sql`AND h.machine = 'failed' AND h.human = 'passed'`,
  false_pass: Prisma.sql`AND h.machine = 'passed' AND h.human = 'failed'`,
};

export const CUSTOMER_SENTIMENT_FILTERS = ['measured', 'trend', 'improved', 'worsened'] as const;
export type CustomerSentimentFilter = (typeof CUSTOMER_SENTIMENT_FILTERS)[number];
export const DISPUTE_OUTCOMES = ['opened', 'still_open', 'accepted', 'rejected'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/** Campaign and template "none" in the dashboard's keys (src/reports/reports.ts NONE_ID). */
const NONE = '00000000-0000-0000-0000-000000000000';

/** Midnight starting `day` in the account's time zone, as the rollups' `(started_at AT TIME ZONE zone)::date`. */
const zonedMidnight = (accountId: string, day: string) =>
  Prisma.sql`(${day}::date::timestamp AT TIME ZONE (SELECT a.time_zone FROM accounts a WHERE a.id = ${accountId}::uuid))`;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** "id = ANY(ids)", where NONE in the list also matches a null column. */
function idsOrNone(column: Prisma.Sql, ids: string[]): Prisma.Sql {
  return ids.includes(NONE)
    ? Prisma.sql`(${column} = ANY(${ids}::uuid[]) OR ${column} IS NULL)`
    : Prisma.sql`${column} = ANY(${ids}::uuid[])`;
}

function drillDownWhere(accountId: string, f: CallFilter): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (f.templateIds) where.push(idsOrNone(Prisma.sql`c.template_id`, f.templateIds));
  if (f.dayFrom) where.push(Prisma.sql`c.started_at >= ${zonedMidnight(accountId, f.dayFrom)}`);
  if (f.dayTo) where.push(Prisma.sql`c.started_at < ${zonedMidnight(accountId, dayAfter(f.dayTo))}`);
  if (f.scored) where.push(Prisma.sql`c.status = 'analyzed' AND c.score IS NOT NULL`);
  if (f.coverageMeasured) where.push(Prisma.sql`c.coverage IS NOT NULL`);
  if (f.languageMismatch != null) where.push(Prisma.sql`c.language_mismatch = ${f.languageMismatch}`);
  if (f.scoreBelow != null) where.push(Prisma.sql`c.score < ${f.scoreBelow}`);
  if (f.criterion) {
    const { key, results, critical } = f.criterion;
    const one = (result: string) =>
      Prisma.sql`c.criteria @> ${JSON.stringify([{ key, result, ...(critical ? { critical: true } : {}) }])}::jsonb`;
    where.push(results.length ? Prisma.sql`(${Prisma.join(results.map(one), ' OR ')})` : Prisma.sql`false`);
  }
  if (f.customerSentiment) where.push(SENTIMENT[f.customerSentiment]);
  if (f.dispute) {
    const { outcome, dayFrom, dayTo } = f.dispute;
    // As reportDisputes: an opening counts on the day it was opened, an answer on the day it was given.
    const at = outcome === 'opened' || outcome === 'still_open' ? Prisma.sql`d.opened_at` : Prisma.sql`d.resolved_at`;
    const status = outcome === 'opened' ? null : outcome === 'still_open' ? 'open' : outcome;
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM disputes d WHERE d.call_id = c.id
      AND ${at} >= ${zonedMidnight(accountId, dayFrom)} AND ${at} < ${zonedMidnight(accountId, dayAfter(dayTo))}
      ${status ? Prisma.sql`AND d.status = ${status}` : Prisma.empty})`);
  }
  return where;
}

/** The rollups' rules for the customer's sentiment (report_rollup_sql in prisma/sql/definitions.sql). */
const SENTIMENT: Record<CustomerSentimentFilter, Prisma.Sql> = {
  measured: Prisma.sql`c.customer_sentiment IS NOT NULL`,
  trend: Prisma.sql`c.customer_sentiment_trend IS NOT NULL`,
  improved: Prisma.sql`c.customer_sentiment_trend >= 0.1`,
  worsened: Prisma.sql`c.customer_sentiment_trend <= -0.1`,
};

/**
 * The SQL conditions (over `calls c`) of a call filter, for any query that must list exactly what
 * the app's calls list shows — the CSV export above all (calls-query.ts uses it too, so the list,
 * its counts and the export can never disagree).
 */
export function callFilterWhere(accountId: string, f: CallFilter): Prisma.Sql[] {
  const { where, search } = callFilterParts(accountId, f);
  return search ? [...where, search] : where;
}

/**
 * The same conditions with the transcript search apart: the list walks a sort index under the
 * other conditions and checks the search on the rows it meets (calls-query.ts).
 */
export function callFilterParts(accountId: string, f: CallFilter): { where: Prisma.Sql[]; search: Prisma.Sql | null } {
  const where: Prisma.Sql[] = [Prisma.sql`c.account_id = ${accountId}::uuid`];
  if (f.view) where.push(Prisma.sql`c.status = ANY(${[...CALL_VIEWS[f.view]]}::"CallStatus"[])`);
  if (f.startedFrom) where.push(Prisma.sql`c.started_at >= ${f.startedFrom}`);
  if (f.startedTo) where.push(Prisma.sql`c.started_at < ${f.startedTo}`);
  if (f.agentIds) where.push(Prisma.sql`c.agent_id = ANY(${f.agentIds}::uuid[])`);
  if (f.campaignIds) where.push(idsOrNone(Prisma.sql`c.campaign_id`, f.campaignIds));
  if (f.direction) where.push(Prisma.sql`c.direction = ${f.direction}::"CallDirection"`);
  if (f.scoreMin != null) where.push(Prisma.sql`c.score >= ${f.scoreMin}`);
  if (f.scoreMax != null) where.push(Prisma.sql`c.score <= ${f.scoreMax}`);
  if (f.topic)
    where.push(
      f.exactTopic ? Prisma.sql`c.topic = ${f.topic}` : Prisma.sql`c.topic = ANY(${topicLabels(accountId, f.topic)})`,
    );
  if (f.otherTopics) where.push(Prisma.sql`c.topic IS NOT NULL AND c.topic <> ALL(${f.otherTopics}::text[])`);
  if (f.language) where.push(Prisma.sql`coalesce(c.language, c.detected_language) = ${f.language}`);
  // Containment on the criteria array is what the GIN (jsonb_path_ops) index on calls.criteria answers.
  if (f.failedCriterion)
    where.push(Prisma.sql`c.criteria @> ${JSON.stringify([{ key: f.failedCriterion, result: 'failed' }])}::jsonb`);
  if (f.criticalFail != null) where.push(Prisma.sql`c.critical_fail = ${f.criticalFail}`);
  // search_text is stored folded the same way, so "Peña" finds "pena" and vice versa.
  const search = searchTsquery(f.search);
  // A search looks in transcripts, so a call without one (queued, transcribing, most failed calls)
  // never matches, not even "-router". Said as a condition, it lets the tab counts beside a search
  // read the partial index of calls with a transcript (migration 20261127160000): the failed tab
  // found its answer, none, by reading all 49,168 failed calls of the million-call bench (230 ms).
  if (search) where.push(Prisma.sql`c.search_vector <> ''::tsvector`);
  if (f.excludeCallIds?.length) where.push(Prisma.sql`c.id <> ALL(${[...f.excludeCallIds]}::uuid[])`);
  // The same SQL function as the machine-agreement report, so its counts and this list agree.
  if (f.checkedCriterion)
    where.push(
      Prisma.sql`c.id IN (SELECT h.call_id FROM human_checks(${accountId}::uuid) h
                           WHERE h.criterion_key = ${f.checkedCriterion} ${f.checkedChange ? CHANGE_SQL[f.checkedChange] : Prisma.empty})`,
    );
  where.push(...drillDownWhere(accountId, f));
  return { where, search: search ? Prisma.sql`c.search_vector @@ ${search}` : null };
}

/**
 * A topic label and the labels of the same topic in the account's other templates (same topic key,
 * e.g. "Billing" in the English template and "Facturación" in the Spanish one): one topic for the
 * filter whatever language the call was scored in. Calls store the label, templates map keys to
 * labels; the subquery runs once per query (an init plan), over the account's few templates.
 */
export function topicLabels(accountId: string, topic: string): Prisma.Sql {
  return Prisma.sql`(ARRAY[${topic}::text] || ARRAY(
    SELECT DISTINCT b->>'label'
      FROM templates t CROSS JOIN jsonb_path_query(t.definition, '$.topics[*]') a,
           templates u CROSS JOIN jsonb_path_query(u.definition, '$.topics[*]') b
     WHERE t.account_id = ${accountId}::uuid AND u.account_id = ${accountId}::uuid
       AND a->>'label' = ${topic} AND b->>'key' = a->>'key'))`;
}
