import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { poolOf, type Db } from './client.ts';

/** The table of the migration `rate_limits`; the library never creates it at run time. */
const TABLE = 'rate_limits';

/**
 * A limiter whose counters live in PostgreSQL, so every api process draws on the same count.
 * If the database cannot answer, a per-process count stands in until it can: a limit slightly
 * looser for a moment rather than every request failing.
 */
export function sharedLimiter(db: Db, opts: { keyPrefix: string; points: number; duration: number }) {
  return new RateLimiterPostgres({
    ...opts,
    storeClient: poolOf(db),
    storeType: 'pool',
    tableName: TABLE,
    tableCreated: true,
    // Housekeeping deletes ended windows hourly (deleteEndedRateLimits); no timer per limiter.
    clearExpiredByTimeout: false,
    insuranceLimiter: new RateLimiterMemory(opts),
  });
}

/** Removes counters whose window ended more than an hour ago. */
export async function deleteEndedRateLimits(db: Db, now = Date.now()): Promise<number> {
  return db.$executeRaw`DELETE FROM rate_limits WHERE expire < ${now - 3_600_000}`;
}
