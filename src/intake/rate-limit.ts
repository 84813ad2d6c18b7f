import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { type Db, queryDirect } from '../db/client.ts';
import { DomainError } from '../domain/errors.ts';
import { Prisma } from '../generated/prisma/client.ts';

/** Remembered accounts over their limit, at most (the oldest is forgotten first). */
const MAX_BLOCKED = 10_000;

/** A request past its account's limit: 429 with `Retry-After: details.retryAfterSeconds`. */
export function rateLimited(msBeforeNext: number): DomainError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new DomainError('rate_limited', `Too many requests for this account; retry in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}

/**
 * INTAKE_RATE_PER_MINUTE: every intake request of an account is counted once in PostgreSQL (shared
 * by every api process, key `intake:<account id>`, a fixed window that starts with its first request,
 * timed by the database's clock) and refused with 429 once the window's count passes the limit. The
 * count is `rate_take()` (migration rate_limit_stripes): on one of 8 stripes within what the window's
 * `rate_limits` row granted it, so one account's requests do not all queue on that row (issue 29.5),
 * and exact: a request is refused only when the window's requests truly reached the limit.
 *
 * A request that gets as far as reading its facts is counted by that statement (`countSql`): one
 * round trip fewer per call (issue 12). Every other request — refused before that for any reason, or whose client left — is counted
 * on its own (`ensureCounted`), so every request counts once whatever its outcome, and a refusal
 * answers 429 rather than its own error when the count is past the limit, as when the count came
 * first. Once a window is past the limit it stays past it until it ends (the count only grows), so
 * an account seen over it here is counted and refused before its body is read until then.
 */
export class IntakeRateLimit {
  /** While the database cannot answer, a per-process count stands in: looser for a moment, not failing. */
  private readonly insurance: RateLimiterMemory;
  private readonly blockedUntil = new Map<string, number>();
  private readonly durationMs: number;

  private readonly db: Db;
  private readonly points: number;
  constructor(db: Db, points: number, durationSeconds = 60) {
    this.db = db;
    this.points = points;
    this.durationMs = durationSeconds * 1000;
    this.insurance = new RateLimiterMemory({ keyPrefix: 'intake', points, duration: durationSeconds });
  }

  /** The count of one request of `accountId`. */
  request(accountId: string): RequestCount {
    return new RequestCount(this, accountId);
  }

  /** Whether `accountId`'s current window is known to be past the limit. */
  knownBlocked(accountId: string, now = Date.now()): boolean {
    const until = this.blockedUntil.get(accountId);
    if (until === undefined) return false;
    if (until > now) return true;
    this.blockedUntil.delete(accountId);
    return false;
  }

  /** Counts on its own (the in-process count stands in while the database cannot answer). */
  async consume(accountId: string): Promise<void> {
    const now = Date.now();
    let row: { points: number; expire: string | number | null } | undefined;
    try {
      [row] = await queryDirect<{ points: number; expire: string | null }>(
        this.db,
        this.countSql(accountId),
        'intake-rate-take',
      );
    } catch {
      try {
        await this.insurance.consume(accountId);
        return;
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        throw this.refused(accountId, error.msBeforeNext);
      }
    }
    if (!row) return;
    const refused = this.verdict(
      accountId,
      { points: row.points, expire: row.expire === null ? null : Number(row.expire) },
      now,
    );
    if (refused) throw refused;
  }

  /** The count of one request as a statement (or a CTE of one), yielding `points, expire`. */
  countSql(accountId: string): Prisma.Sql {
    return Prisma.sql`SELECT points, expire FROM rate_take(${`intake:${accountId}`}::text, ${this.points}::int, ${this.durationMs}::bigint)`;
  }

  /** The verdict on the counted row: refused past the limit, until the window ends. */
  verdict(accountId: string, row: { points: number; expire: number | null }, now: number): DomainError | null {
    if (row.points <= this.points) return null;
    return this.refused(accountId, row.expire === null ? -1 : Math.max(row.expire - now, 0));
  }

  private refused(accountId: string, msBeforeNext: number): DomainError {
    if (msBeforeNext > 0) {
      if (this.blockedUntil.size >= MAX_BLOCKED) this.blockedUntil.delete(this.blockedUntil.keys().next().value!);
      this.blockedUntil.set(accountId, Date.now() + msBeforeNext);
    }
    return rateLimited(msBeforeNext);
  }
}

/** One request's count: taken at most once, by the facts statement or on its own. */
export class RequestCount {
  counted = false;

  private readonly limit: IntakeRateLimit;
  readonly accountId: string;
  constructor(limit: IntakeRateLimit, accountId: string) {
    this.limit = limit;
    this.accountId = accountId;
  }

  /** The CTE that counts this request inside another statement (then `settle` its row). */
  sql(): Prisma.Sql {
    return this.limit.countSql(this.accountId);
  }

  /** Takes the row the CTE returned; throws `rate_limited` past the limit. */
  settle(row: { points: number; expire: number | null }, now: number): void {
    this.counted = true;
    const refused = this.limit.verdict(this.accountId, row, now);
    if (refused) throw refused;
  }

  /** Counts the request on its own unless it already is; throws `rate_limited` past the limit. */
  async ensureCounted(): Promise<void> {
    if (this.counted) return;
    this.counted = true;
    await this.limit.consume(this.accountId);
  }
}
