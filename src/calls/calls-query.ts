import { isUuid } from '../accounts/api-keys.ts';
import type { Db } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { DomainError } from '../domain/errors.ts';
import { CALL_VIEWS, type CallFilter, callFilterParts, callFilterWhere, topicLabels } from './calls-filter.ts';
import { countScoreBand } from './score-band-count.ts';
import { type KeysetPart, searchWalkBudget, type WalkedRow, walkedSearchPage } from './search-walk.ts';
import type { CallStatus } from '../generated/prisma/client.ts';

export { CALL_VIEWS, type CallFilter, type CallView, viewOf } from './calls-filter.ts';

export type CallSort = 'started_at' | 'score' | 'duration';

export interface CallPageRequest {
  sort: CallSort;
  order: 'asc' | 'desc';
  /** Page size, already clamped by the caller. */
  limit: number;
  after?: string | null;
  before?: string | null;
  /** With `before`, the page is the `limit` rows just before the cursor. */
  backward?: boolean;
}

export interface CallPage {
  rows: { id: string; cursor: string }[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * Sort columns. Nulls (no score yet, duration unknown) come last when descending and first when
 * ascending: each column has an index `(account_id, column NULLS FIRST, id)` read forwards or
 * backwards, so every page is an index range scan whatever its depth.
 */
const SORT_COLUMN: Record<CallSort, { column: Prisma.Sql; nullable: boolean }> = {
  started_at: { column: Prisma.sql`c.started_at`, nullable: false },
  score: { column: Prisma.sql`c.score`, nullable: true },
  duration: { column: Prisma.sql`c.duration_seconds`, nullable: true },
};

interface CursorValue {
  v: string | number | null;
  id: string;
}

function encodeCursor(sort: CallSort, value: Date | number | null, id: string): string {
  const v = value instanceof Date ? value.toISOString() : value;
  return Buffer.from(JSON.stringify({ s: sort, v, id })).toString('base64url');
}

function decodeCursor(sort: CallSort, cursor: string): CursorValue {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      s?: string;
      v?: unknown;
      id?: unknown;
    };
    const validValue =
      sort === 'started_at'
        ? typeof parsed.v === 'string' && !Number.isNaN(Date.parse(parsed.v))
        : typeof parsed.v === 'number' || parsed.v === null;
    if (parsed.s === sort && validValue && typeof parsed.id === 'string' && isUuid(parsed.id)) {
      return { v: parsed.v as string | number | null, id: parsed.id };
    }
  } catch {
    // fall through: any malformed cursor gets the same answer
  }
  throw new DomainError(
    'invalid_cursor',
    'The cursor does not belong to this list or sort order; start again from the first page.',
  );
}

/**
 * The rows of a nullable sort column fall in two runs, the nulls and the values, each a plain
 * index range. A keyset condition over both ("after (42, id) or any null") is not a range, so the
 * page is read run by run: the cursor's run from the cursor on, then the next run from its start.
 */
function keysetParts(page: CallPageRequest, cursor: CursorValue | null): KeysetPart[] {
  const { column, nullable } = SORT_COLUMN[page.sort];
  const descending = (page.order === 'desc') !== !!page.backward;
  // Spelled as the indexes are: started_at is never null (default NULLS placement), the others are NULLS FIRST.
  const dir = Prisma.raw(nullable ? (descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST') : descending ? 'DESC' : 'ASC');
  const idDir = Prisma.raw(descending ? 'DESC' : 'ASC');
  const cmp = Prisma.raw(descending ? '<' : '>');
  const order = Prisma.sql`${column} ${dir}, c.id ${idDir}`;
  const value =
    cursor?.v == null
      ? null
      : page.sort === 'started_at'
        ? Prisma.sql`${new Date(cursor.v)}::timestamptz`
        : Prisma.sql`${cursor.v}::float8`;
  if (!nullable) {
    return [{ where: cursor ? [Prisma.sql`(${column}, c.id) ${cmp} (${value}, ${cursor.id}::uuid)`] : [], order }];
  }
  const values = {
    where: [
      Prisma.sql`${column} IS NOT NULL`,
      ...(value ? [Prisma.sql`(${column}, c.id) ${cmp} (${value}, ${cursor!.id}::uuid)`] : []),
    ],
    order,
  };
  const nulls = {
    where: [
      Prisma.sql`${column} IS NULL`,
      ...(cursor && cursor.v == null ? [Prisma.sql`c.id ${cmp} ${cursor.id}::uuid`] : []),
    ],
    order,
  };
  // Descending: values, then nulls. Ascending: nulls, then values.
  if (descending) return cursor && cursor.v == null ? [nulls] : [values, nulls];
  return cursor && cursor.v != null ? [values] : [nulls, values];
}

/** One keyset-paginated page of call ids; the caller loads the rows it needs by id. */
export async function listCallPage(
  db: Db,
  accountId: string,
  filter: CallFilter,
  page: CallPageRequest,
): Promise<CallPage> {
  // Walking backwards is walking forwards in the opposite order, then reversing the rows.
  const backward = !!page.backward;
  const cursorText = backward ? page.before : page.after;
  const cursor = cursorText ? decodeCursor(page.sort, cursorText) : null;
  const parts = keysetParts(page, cursor);
  const { where, search } = callFilterParts(accountId, filter);
  // A common word: its newest matches are met within a few hundred calls of the sort index, so
  // none is ranked that is not shown. A rare one (or a walk that met too few): listed by the GIN index.
  const budget = search ? await searchWalkBudget(db, search, page.limit) : null;
  const walked =
    search && budget
      ? await walkedSearchPage(db, where, search, SORT_COLUMN[page.sort].column, parts, page.limit, budget)
      : null;
  const rows = walked ?? (await indexedPage(db, search ? [...where, search] : where, !!search, parts, page));
  const more = rows.length > page.limit;
  const pageRows = rows
    .slice(0, page.limit)
    .map((r) => ({ id: r.id, cursor: encodeCursor(page.sort, r.sort_value, r.id) }));
  if (backward) pageRows.reverse();
  return {
    rows: pageRows,
    hasNextPage: backward ? !!page.before : more,
    hasPreviousPage: backward ? more : !!page.after,
  };
}

/**
 * A page read part by part from the sort indexes under every condition; for a search, from its
 * matches when the GIN index finds few.
 */
async function indexedPage(
  db: Db,
  where: Prisma.Sql[],
  searching: boolean,
  parts: KeysetPart[],
  page: CallPageRequest,
): Promise<WalkedRow[]> {
  const { column } = SORT_COLUMN[page.sort];
  const dir = Prisma.raw((page.order === 'desc') !== !!page.backward ? 'DESC' : 'ASC');
  const few = searching ? await fewSearchMatches(db, where) : null;
  // OFFSET 0 fences the few rows off, so they are read by primary key and sorted, never found by
  // walking a sort index.
  const from = few ? Prisma.sql`(SELECT * FROM calls WHERE id = ANY(${few}::uuid[]) OFFSET 0) c` : Prisma.sql`calls c`;
  const queries = parts.map(
    (part, i) => Prisma.sql`(SELECT ${i} AS part, c.id, ${column} AS sort_value FROM ${from}
      WHERE ${Prisma.join([...(few ? [Prisma.sql`TRUE`] : where), ...part.where], ' AND ')}
      ORDER BY ${part.order} LIMIT ${page.limit + 1})`,
  );
  // Each part is sorted and limited on its own (an index range scan); the outer sort only orders
  // the few rows they return.
  return queries.length === 1
    ? await db.$queryRaw<WalkedRow[]>`${queries[0]!}`
    : await db.$queryRaw<WalkedRow[]>`
        SELECT id, sort_value FROM (${Prisma.join(queries, ' UNION ALL ')}) p
         ORDER BY p.part, p.sort_value ${dir}, p.id ${dir} LIMIT ${page.limit + 1}`;
}

/** Up to this many search matches are sorted in memory rather than found by walking a sort index. */
const FEW_MATCHES = 2_000;

/**
 * A search for a rare word: PostgreSQL estimates a word's matches from statistics that barely
 * know rare words, so it may walk the whole started_at index reading one transcript vector per
 * row (seconds at a million calls) to find 25 matches that the GIN index lists at once. Asking
 * first for up to FEW_MATCHES ids with no order leaves the planner nothing to walk: the GIN
 * index answers. When the word is that rare the page is then sorted from those ids alone; more
 * matches (a word the statistics call rare that is not, or whose budgeted walk met too few
 * matches) keep the index walk, which then meets a match every few rows.
 */
async function fewSearchMatches(db: Db, where: Prisma.Sql[]): Promise<string[] | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM calls c WHERE ${Prisma.join(where, ' AND ')} LIMIT ${FEW_MATCHES + 1}`;
  return rows.length > FEW_MATCHES ? null : rows.map((r) => r.id);
}

/** Counts past this are shown as "10,000+": exact counts of arbitrary filters would scan. */
export const COUNT_CAP = 10_000;
/**
 * A search counts fewer ("1,000+"): checking a row means reading its transcript's tsvector out of
 * line storage, ten times the cost of any other filter, and a common word matches most calls.
 */
export const SEARCH_COUNT_CAP = 1_000;

export interface CallCount {
  count: number;
  /** false when the count stopped at COUNT_CAP (there are more). */
  exact: boolean;
}

type Facet = { kind: 'agent' | 'campaign' | 'topic' | 'language' | 'direction'; values: string[] };

/**
 * How a filter can be counted from the counters: null for a view (or all calls) alone, the one
 * facet it narrows by when that is all it does, 'band' for a score band alone, 'scan' otherwise.
 */
function countingPlan(f: CallFilter): null | Facet | 'band' | 'scan' {
  const facets: Facet[] = [];
  let other = false;
  let band = false;
  for (const [key, v] of Object.entries(f) as [keyof CallFilter, unknown][]) {
    if (key === 'view' || v == null || v === '' || (Array.isArray(v) && !v.length)) continue;
    if (key === 'scoreMin' || key === 'scoreMax') band = true;
    else if (key === 'agentIds') facets.push({ kind: 'agent', values: v as string[] });
    else if (key === 'campaignIds') facets.push({ kind: 'campaign', values: v as string[] });
    else if (key === 'topic' || key === 'language' || key === 'direction')
      facets.push({ kind: key, values: [String(v)] });
    else other = true;
  }
  if (other || facets.length > 1 || (band && facets.length)) return 'scan';
  return band ? 'band' : (facets[0] ?? null);
}

/**
 * Calls matching a filter. A view (or all calls), alone or narrowed by one agent, campaign, topic,
 * language or direction, is read from the counters the triggers on calls keep exact, and a score
 * band alone mostly from its whole points' counters (score-band-count.ts); any other filter (dates,
 * a band with a facet, several facets) counts matching rows up to COUNT_CAP, a search up to
 * SEARCH_COUNT_CAP.
 */
export async function countCalls(db: Db, accountId: string, filter: CallFilter): Promise<CallCount> {
  const plan = countingPlan(filter);
  const statuses: CallStatus[] = filter.view ? [...CALL_VIEWS[filter.view]] : Object.values(CALL_VIEWS).flat();
  if (plan === null) {
    const [row] = await db.$queryRaw<{ n: number }[]>`
      SELECT coalesce(sum(calls), 0)::int AS n FROM call_counts
       WHERE account_id = ${accountId}::uuid AND status = ANY(${statuses}::"CallStatus"[])`;
    return { count: row?.n ?? 0, exact: true };
  }
  if (plan === 'band') {
    const n = await countScoreBand(
      db,
      accountId,
      statuses,
      filter.scoreMin ?? null,
      filter.scoreMax ?? null,
      COUNT_CAP,
    );
    return n == null ? { count: COUNT_CAP, exact: false } : { count: n, exact: true };
  }
  if (plan !== 'scan') {
    // A topic counts with its other-language labels, as the list filters it.
    const values = plan.kind === 'topic' ? topicLabels(accountId, plan.values[0]!) : Prisma.sql`${plan.values}::text[]`;
    const [row] = await db.$queryRaw<{ n: number }[]>`
      SELECT coalesce(sum(calls), 0)::int AS n FROM call_facets
       WHERE account_id = ${accountId}::uuid AND kind = ${plan.kind}::"CallFacetKind"
         AND value = ANY(${values}) AND status = ANY(${statuses}::"CallStatus"[])`;
    return { count: row?.n ?? 0, exact: true };
  }
  const cap = filter.search?.trim() ? SEARCH_COUNT_CAP : COUNT_CAP;
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM calls c WHERE ${Prisma.join(callFilterWhere(accountId, filter), ' AND ')} LIMIT ${cap + 1}) x`;
  const n = row?.n ?? 0;
  return n > cap ? { count: cap, exact: false } : { count: n, exact: true };
}

export interface CallFilterOptions {
  topics: string[];
  /** The topics again, one entry per topic key: a topic's labels in every template (language) together. */
  topicGroups: { labels: string[] }[];
  /** Criteria of the account's templates, one per key, for "failed criterion". */
  criteria: { key: string; label: string }[];
  languages: string[];
  agentIds: string[];
  campaignIds: string[];
}

/** The topics, languages, agents and campaigns the account's calls use (from call_facets). */
export async function callFilterOptions(db: Db, accountId: string): Promise<CallFilterOptions> {
  const rows = await db.$queryRaw<{ kind: string; value: string }[]>`
    SELECT kind::text AS kind, value FROM call_facets
     WHERE account_id = ${accountId}::uuid AND kind <> 'direction'
     GROUP BY kind, value HAVING sum(calls) > 0
     ORDER BY kind, value
     LIMIT 5000`;
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.value);
  // Templates name topics and criteria by key; the oldest template's label wins for a criterion.
  const items = await db.$queryRaw<{ section: string; key: string; label: string }[]>`
    SELECT 'topic' AS section, x->>'key' AS key, x->>'label' AS label
      FROM templates t CROSS JOIN jsonb_path_query(t.definition, '$.topics[*]') x
     WHERE t.account_id = ${accountId}::uuid
    UNION ALL
    SELECT * FROM (
      SELECT DISTINCT ON (x->>'key') 'criterion', x->>'key', x->>'label'
        FROM templates t CROSS JOIN jsonb_path_query(t.definition, '$.criteria[*]') x
       WHERE t.account_id = ${accountId}::uuid AND t.deleted_at IS NULL
       ORDER BY x->>'key', t.created_at) c`;
  const keyOfLabel = new Map<string, string>();
  for (const i of items) if (i.section === 'topic' && !keyOfLabel.has(i.label)) keyOfLabel.set(i.label, i.key);
  const topics = of('topic');
  const groups = new Map<string, string[]>();
  for (const label of topics) {
    const k = keyOfLabel.has(label) ? `key:${keyOfLabel.get(label)}` : `label:${label}`;
    groups.set(k, [...(groups.get(k) ?? []), label]);
  }
  return {
    topics,
    topicGroups: [...groups.values()].map((labels) => ({ labels })),
    criteria: items
      .filter((i) => i.section === 'criterion' && i.key)
      .map((i) => ({ key: i.key, label: i.label || i.key }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    languages: of('language'),
    agentIds: of('agent'),
    campaignIds: of('campaign'),
  };
}
