import type { Db } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';

/** One run of a keyset page (calls-query.ts): its conditions and its order, an index range. */
export interface KeysetPart {
  where: Prisma.Sql[];
  order: Prisma.Sql;
}

export interface WalkedRow {
  id: string;
  sort_value: Date | number | null;
}

/**
 * A search the statistics put in at least this fraction of calls is common. It is above the
 * planner's guesses for what its statistics do not know: at most 0.005 for a word they do not
 * list (DEFAULT_TS_MATCH_SEL), 0.02 for any prefix while they list fewer than 100 words (a young
 * or small table). So a word is only walked for when ANALYZE saw it often.
 */
const COMMON_FRACTION = 0.03;
/** The walk gives up after this many times the calls it expects to read, within these bounds. */
const BUDGET_FACTOR = 8;
const MIN_BUDGET = 2_000;
const MAX_BUDGET = 20_000;

/**
 * How many calls a page of a search may walk in sort order before giving up, or null when the
 * search is not known to be common, so the GIN index should list its matches first.
 *
 * The fraction of calls a search matches is PostgreSQL's own estimate, from the statistics
 * ANALYZE keeps on search_vector (the most common lexemes and their frequencies, which the planner
 * combines for prefixes, phrases, and/or/not): the planner's row estimate for the search alone,
 * over the table's row count. A page of a word in one call of five is met within about 130 calls
 * of the date index; listing its 200,000 matches first is what made such a search slow (issue 30).
 */
export async function searchWalkBudget(db: Db, search: Prisma.Sql, limit: number): Promise<number | null> {
  // One plan, two estimates: the search's rows and the table's, on the same basis (the table's
  // statistics and its current size). Never analyzed, the search gets the planner's default
  // fraction, which is not common.
  const plan = await db.$queryRaw<Record<string, unknown>[]>`
    EXPLAIN (FORMAT JSON) SELECT 1 FROM calls c WHERE ${search} UNION ALL SELECT 1 FROM calls c`;
  const [matches, total] = appendRows(plan);
  if (matches == null || total == null || !(total > 0)) return null;
  const fraction = Math.min(1, matches / total);
  if (fraction < COMMON_FRACTION) return null;
  return Math.round(Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, (BUDGET_FACTOR * (limit + 1)) / fraction)));
}

type PlanNode = { 'Plan Rows'?: unknown; Plans?: PlanNode[] };

/**
 * The estimated rows of each branch of an EXPLAIN (FORMAT JSON) of a UNION ALL: the children of its
 * Append (under a Gather when the planner goes parallel; both branches then per worker alike).
 */
function appendRows(result: Record<string, unknown>[]): (number | undefined)[] {
  const raw = result[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: PlanNode }[] | undefined;
  let node = plan?.[0]?.Plan;
  while (node?.Plans?.length === 1) node = node.Plans[0];
  return (node?.Plans ?? []).map((p) => {
    const rows = p['Plan Rows'];
    return typeof rows === 'number' && Number.isFinite(rows) ? rows : undefined;
  });
}

/**
 * A page of a common word's search, found by walking each part's sort index under the other
 * conditions and checking the search on the calls met, up to `budget` calls per part: the newest
 * 25 matches are the first 25 met, so no match is ranked that is not shown.
 *
 * Null when a part used its whole budget before the page was full: the statistics said common,
 * but not in these calls (a Spanish word in an English account, a word of last year in this
 * month). The caller then lists the matches from the GIN index instead, as for a rare word; the
 * walk has cost at most `budget` rows.
 */
export async function walkedSearchPage(
  db: Db,
  where: Prisma.Sql[],
  search: Prisma.Sql,
  column: Prisma.Sql,
  parts: KeysetPart[],
  limit: number,
  budget: number,
): Promise<WalkedRow[] | null> {
  // row_number() counts the calls walked; the budget-th one comes back whatever it holds, so a
  // part that ran out of budget says so. The walk keeps the name `c` and the sort column's own
  // name, so the outer ORDER BY is the part's order over the walk's output, which the planner
  // knows is already sorted: nothing is sorted, and the walk stops at the last row taken.
  const queries = parts.map(
    (part, i) => Prisma.sql`(SELECT ${i}::int AS part, c.n, c.hit, c.id, c.sort_value FROM (
        SELECT c.id, ${column}, ${column} AS sort_value, ${search} AS hit,
               (row_number() OVER (ORDER BY ${part.order}))::int AS n
          FROM calls c WHERE ${Prisma.join([...where, ...part.where], ' AND ')}
         ORDER BY ${part.order} LIMIT ${budget}) c
       WHERE c.hit OR c.n = ${budget}
       ORDER BY ${part.order} LIMIT ${limit + 1})`,
  );
  const rows = await db.$queryRaw<(WalkedRow & { part: number; n: number; hit: boolean })[]>`
    SELECT * FROM (${Prisma.join(queries, ' UNION ALL ')}) p ORDER BY p.part, p.n`;
  const out: WalkedRow[] = [];
  for (const r of rows) {
    if (r.hit) out.push({ id: r.id, sort_value: r.sort_value });
    if (out.length > limit) return out;
    if (r.n === budget) return null;
  }
  return out;
}
