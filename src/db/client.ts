import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

// The pg pool under each client, for the few libraries that speak pg themselves (the shared rate
// limiters): they borrow the app's connections instead of opening their own.
const pools = new WeakMap<Db, pg.Pool>();

export function createDb(connectionString: string, opts: { max?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString, max: opts.max ?? 10 });
  // $disconnect ends the pool, as it would a pool of the adapter's own.
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/** The pg pool a client made by createDb runs on. */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this database client was not made by createDb');
  return pool;
}
