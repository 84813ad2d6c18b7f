import type { Db } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import type { CallStatus } from '../generated/prisma/client.ts';

/**
 * Calls of these statuses scoring within [min, max] (either end open when null), counted exactly
 * up to `cap` (null past it): the whole points inside the band from call_score_counts (kept by
 * triggers, migration 20261127031000_score_band_counts), and only its edges — the part below the
 * first whole point and from the last one up — on the score index, stopping at what the cap
 * still allows. "0–20" is buckets 0…19 plus the calls scoring exactly 20.
 */
export async function countScoreBand(
  db: Db,
  accountId: string,
  statuses: CallStatus[],
  min: number | null,
  max: number | null,
  cap: number,
): Promise<number | null> {
  // Bucket b holds b ≤ score < b + 1; it lies inside the band when min ≤ b and b + 1 ≤ max.
  const lo = min == null ? null : Math.ceil(min);
  const hi = max == null ? null : Math.floor(max);
  const inside: Prisma.Sql[] = [];
  if (lo != null) inside.push(Prisma.sql`bucket >= ${lo}::float8`);
  if (hi != null) inside.push(Prisma.sql`bucket < ${hi}::float8`);
  const [full] = await db.$queryRaw<{ n: number }[]>`
    SELECT coalesce(sum(calls), 0)::int AS n FROM call_score_counts
     WHERE account_id = ${accountId}::uuid AND status = ANY(${statuses}::"CallStatus"[])
       ${inside.length ? Prisma.sql`AND ${Prisma.join(inside, ' AND ')}` : Prisma.empty}`;
  const whole = full?.n ?? 0;
  if (whole > cap) return null;
  // The edges: [min, lo) and [hi, max], or the whole band when no whole point fits in it.
  const edges: Prisma.Sql[] = [];
  if (lo != null && hi != null && lo >= hi) {
    edges.push(Prisma.sql`(c.score >= ${min}::float8 AND c.score <= ${max}::float8)`);
  } else {
    if (min != null && min < lo!) edges.push(Prisma.sql`(c.score >= ${min}::float8 AND c.score < ${lo}::float8)`);
    if (max != null) edges.push(Prisma.sql`(c.score >= ${hi}::float8 AND c.score <= ${max}::float8)`);
  }
  if (!edges.length) return whole;
  // One range scan of the score index per edge (an OR would turn them into a bitmap over the table).
  const scans = edges.map(
    (range) => Prisma.sql`(SELECT 1 FROM calls c
       WHERE c.account_id = ${accountId}::uuid AND c.status = ANY(${statuses}::"CallStatus"[]) AND ${range})`,
  );
  const [edge] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM (${Prisma.join(scans, ' UNION ALL ')}) e LIMIT ${cap + 1 - whole}) x`;
  const n = whole + (edge?.n ?? 0);
  return n > cap ? null : n;
}
