import { Prisma } from '../generated/prisma/client.ts';
import type { CallDirection } from '../generated/prisma/client.ts';
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
  /** Calls on which a person checked this criterion's verdict (src/calibration/machine-agreement.ts). */
  checkedCriterion?: string | null;
  /** With `checkedCriterion`: only where the machine's verdict stood, was changed, or was a false fail / pass. */
  checkedChange?: CheckedChange | null;
  /**
   * Not a user's filter: leaves out the calls this user grades blind in an open calibration
   * (src/calibration/read.ts sets it only for users who hold such a seat).
   */
  blindFor?: string | null;
}

export const CHECKED_CHANGES = ['stood', 'changed', 'false_fail', 'false_pass'] as const;
export type CheckedChange = (typeof CHECKED_CHANGES)[number];
const CHANGE_SQL: Record<CheckedChange, Prisma.Sql> = {
  stood: Prisma.sql`AND h.machine = h.human`,
  changed: Prisma.sql`AND h.machine IS DISTINCT FROM h.human`,
  false_fail: Prisma.sql`AND h.machine = 'failed' AND h.human = 'passed'`,
  false_pass: Prisma.sql`AND h.machine = 'passed' AND h.human = 'failed'`,
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
  if (f.campaignIds) where.push(Prisma.sql`c.campaign_id = ANY(${f.campaignIds}::uuid[])`);
  if (f.direction) where.push(Prisma.sql`c.direction = ${f.direction}::"CallDirection"`);
  if (f.scoreMin != null) where.push(Prisma.sql`c.score >= ${f.scoreMin}`);
  if (f.scoreMax != null) where.push(Prisma.sql`c.score <= ${f.scoreMax}`);
  if (f.topic) where.push(Prisma.sql`c.topic = ANY(${topicLabels(accountId, f.topic)})`);
  if (f.language) where.push(Prisma.sql`coalesce(c.language, c.detected_language) = ${f.language}`);
  // Containment on the criteria array is what the GIN (jsonb_path_ops) index on calls.criteria answers.
  if (f.failedCriterion)
    where.push(Prisma.sql`c.criteria @> ${JSON.stringify([{ key: f.failedCriterion, result: 'failed' }])}::jsonb`);
  if (f.criticalFail != null) where.push(Prisma.sql`c.critical_fail = ${f.criticalFail}`);
  // search_text is stored folded the same way, so "Peña" finds "pena" and vice versa.
  const search = searchTsquery(f.search);
  if (f.blindFor)
    where.push(Prisma.sql`NOT EXISTS (SELECT 1 FROM calibration_calls cc
                        JOIN calibration_sessions s ON s.id = cc.session_id AND s.status = 'open'
                        JOIN calibration_graders g ON g.session_id = s.id AND g.user_id = ${f.blindFor}::uuid
                       WHERE cc.call_id = c.id)`);
  // The same SQL function as the machine-agreement report, so its counts and this list agree.
  if (f.checkedCriterion)
    where.push(
      Prisma.sql`c.id IN (SELECT h.call_id FROM human_checks(${accountId}::uuid) h
                           WHERE h.criterion_key = ${f.checkedCriterion} ${f.checkedChange ? CHANGE_SQL[f.checkedChange] : Prisma.empty})`,
    );
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
