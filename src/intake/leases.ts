import { randomUUID } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.ts';
import { type Db, queryDirect } from '../db/client.ts';
import type { Logger } from '../log.ts';

/**
 * Uploads in flight per API key, counted in PostgreSQL so INTAKE_MAX_CONCURRENT_PER_KEY holds across
 * every api process (issue 29.4). Each upload takes a lease row (the `take_intake_lease` function of
 * the migration intake_leases) and gives it back when it ends; this process renews its leases every
 * third of `leaseMs`, so when it dies without giving them back they expire within `leaseMs`.
 */
export class IntakeLeases {
  /** This process, as the holder of its leases. */
  private readonly holder = randomUUID();
  private held = 0;
  private renewal: NodeJS.Timeout | null = null;

  private readonly db: Db;
  private readonly log: Logger;
  private readonly cap: number;
  private readonly leaseMs: number;
  constructor(db: Db, log: Logger, opts: { cap: number; leaseMs: number }) {
    this.db = db;
    this.log = log;
    this.cap = opts.cap;
    this.leaseMs = opts.leaseMs;
  }

  /** A slot of the key's cap, or null when every slot is held (by any process). */
  async take(keyId: string): Promise<{ release(): Promise<void> } | null> {
    const [row] = await queryDirect<{ lease: string | null }>(
      this.db,
      Prisma.sql`SELECT take_intake_lease(${keyId}::uuid, ${this.holder}::text, ${this.cap}::int, ${Math.round(this.leaseMs)}::int) AS lease`,
      'take_intake_lease',
    );
    const lease = row?.lease;
    if (!lease) return null;
    this.held++;
    this.renewWhileHeld();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.held--;
        if (this.held === 0 && this.renewal) {
          clearInterval(this.renewal);
          this.renewal = null;
        }
        // A lease that cannot be given back (database away) frees itself when it expires.
        await queryDirect(
          this.db,
          Prisma.sql`DELETE FROM intake_leases WHERE id = ${lease}::uuid`,
          'give_intake_lease',
        ).catch((error: Error) =>
          this.log.warn({ err: error.message }, 'could not give back an intake lease; it expires by itself'),
        );
      },
    };
  }

  private renewWhileHeld() {
    if (this.renewal) return;
    this.renewal = setInterval(() => {
      queryDirect(
        this.db,
        Prisma.sql`UPDATE intake_leases SET expires_at = clock_timestamp() + ${Math.round(this.leaseMs)}::int * interval '1 millisecond' WHERE holder = ${this.holder}::text`,
        'renew_intake_leases',
      ).catch((error: Error) => this.log.warn({ err: error.message }, 'could not renew intake leases'));
    }, this.leaseMs / 3);
    this.renewal.unref();
  }
}

/** Removes leases that expired (their process died); hourly housekeeping. */
export async function deleteExpiredIntakeLeases(db: Db): Promise<number> {
  return db.$executeRaw`DELETE FROM intake_leases WHERE expires_at < now()`;
}
