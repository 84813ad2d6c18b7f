import { isUuid } from './api-keys.ts';
import type { Db } from '../db/client.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { DomainError } from './errors.ts';
import { type CallFilter, callFilterWhere } from './calls-filter.ts';

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

// Nulls (no score yet, duration unknown) sort as -1: last when descending, first when ascending,
// which keeps keyset pagination a single row comparison.
const SORT_EXPR: Record<CallSort, Prisma.Sql> = {
  started_at: Prisma.sql`c.started_at`,
  score: Prisma.sql`coalesce(c.score, -1)`,
  duration: Prisma.sql`coalesce(c.duration_seconds, -1)`,
};

// Shared with the CSV export (calls-filter.ts) so the list and the export can never disagree.
const whereOf = (accountId: string, f: CallFilter): Prisma.Sql[] => callFilterWhere(accountId, f);

interface CursorValue {
  v: string | number;
  id: string;
}

function encodeCursor(sort: CallSort, value: Date | number, id: string): string {
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
        : typeof parsed.v === 'number';
    if (parsed.s === sort && validValue && typeof parsed.id === 'string' && isUuid(parsed.id)) {
      return { v: parsed.v as string | number, id: parsed.id };
    }
  } catch {
    // fall through: any malformed cursor gets the same answer
  }
  throw new DomainError(
    'invalid_cursor',
    'The cursor does not belong to this list or sort order; start again from the first page.',
  );
}

/** One keyset-paginated page of call ids; the caller loads the rows it needs by id. */
export async function listCallPage(
  db: Db,
  accountId: string,
  filter: CallFilter,
  page: CallPageRequest,
): Promise<CallPage> {
  const where = whereOf(accountId, filter);
  const expr = SORT_EXPR[page.sort];
  // Walking backwards is walking forwards in the opposite order, then reversing the rows.
  const backward = !!page.backward;
  const descending = (page.order === 'desc') !== backward;
  const cursor = backward ? page.before : page.after;
  if (cursor) {
    const c = decodeCursor(page.sort, cursor);
    const value = page.sort === 'started_at' ? Prisma.sql`${new Date(c.v)}::timestamptz` : Prisma.sql`${c.v}::float8`;
    where.push(
      descending
        ? Prisma.sql`(${expr}, c.id) < (${value}, ${c.id}::uuid)`
        : Prisma.sql`(${expr}, c.id) > (${value}, ${c.id}::uuid)`,
    );
  }
  const dir = Prisma.raw(descending ? 'DESC' : 'ASC');
  const rows = await db.$queryRaw<{ id: string; sort_value: Date | number }[]>`
    SELECT c.id, ${expr} AS sort_value FROM calls c
     WHERE ${Prisma.join(where, ' AND ')}
     ORDER BY ${expr} ${dir}, c.id ${dir}
     LIMIT ${page.limit + 1}`;
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

export async function countCalls(db: Db, accountId: string, filter: CallFilter): Promise<number> {
  const [row] = await db.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM calls c WHERE ${Prisma.join(whereOf(accountId, filter), ' AND ')}`;
  return row?.n ?? 0;
}
