import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.ts';

export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;

/**
 * Prisma's query interpreter reads a query's relations concurrently (`select: { agent, campaign }`).
 * Outside a transaction each read gets its own pooled connection; inside an interactive transaction
 * they all share the transaction's one pg client, which queues them but warns ("Calling
 * client.query() when the client is already executing a query", refused from pg@9). Queuing them
 * here keeps the same order without leaning on pg's deprecated queue.
 */
class SerialTransactionPg extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => serialise(await start(isolationLevel));
    return adapter;
  }
}

function serialise(tx: Transaction): Transaction {
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const next = tail.then(run, run);
    tail = next.catch(() => {});
    return next;
  };
  const queryRaw = tx.queryRaw.bind(tx);
  const executeRaw = tx.executeRaw.bind(tx);
  tx.queryRaw = (query) => inTurn(() => queryRaw(query));
  tx.executeRaw = (query) => inTurn(() => executeRaw(query));
  return tx;
}

// The pg pool under each client, for the few libraries that speak pg themselves (the shared rate
// limiters): they borrow the app's connections instead of opening their own.
const pools = new WeakMap<Db, pg.Pool>();
// Pools whose address is a transaction pooler (PgBouncer): a named prepared statement would live on
// one server session and be missing on the next transaction's.
const behindPooler = new WeakSet<pg.Pool>();

/** Connections of the app's pool per process (the figure docs/operations/scaling.md sizes with). */
export const APP_POOL_SIZE = 10;

export function createDb(
  connectionString: string,
  opts: {
    max?: number;
    onQuery?: () => void;
    /** Shown in pg_stat_activity.application_name, so an operator can count connections per kind of process. */
    applicationName?: string;
    /** `connectionString` is a transaction pooler: no named prepared statements. */
    pooler?: boolean;
  } = {},
): Db {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? APP_POOL_SIZE,
    ...(opts.applicationName && { application_name: opts.applicationName }),
  });
  if (opts.pooler) behindPooler.add(pool);
  // $disconnect ends the pool, as it would a pool of the adapter's own.
  const adapter = new SerialTransactionPg(pool, { disposeExternalPool: true });
  let db: Db;
  if (opts.onQuery) {
    // Tests count statements (N+1 checks) on a client that is otherwise the app's own.
    const counting = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] as const });
    counting.$on('query', opts.onQuery);
    db = counting as unknown as Db;
  } else db = new PrismaClient({ adapter });
  pools.set(db, pool);
  return db;
}

/** The pg pool a client made by createDb runs on. */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('this database client was not made by createDb');
  return pool;
}

/**
 * One statement built with Prisma.sql, run straight on the client's pg pool: for the few hot
 * statements (intake's two a call) whose parameters are all cast in the SQL and whose results are
 * plain numbers, text and json. It skips the ORM's per-query plan (its compiler runs in WebAssembly
 * even for raw SQL) and the garbage that comes with it. Inside a transaction it runs on the
 * transaction's connection through Prisma, as any statement would.
 *
 * `name` makes it a prepared statement of each pooled connection: PostgreSQL parses and analyses
 * the text once per connection instead of on every call (for intake's insert, a tenth of its CPU).
 * The text must then be the same on every call (pg refuses a name reused for another text).
 */
export async function queryDirect<T>(db: Db | Tx, query: Prisma.Sql, name?: string): Promise<T[]> {
  const pool = pools.get(db as Db);
  if (!pool) return (db as Db).$queryRaw<T[]>(query);
  const named = behindPooler.has(pool) ? undefined : name;
  return (await pool.query<T & pg.QueryResultRow>({ name: named, text: query.text, values: query.values })).rows;
}

/** Runs a write; a unique-index violation (Prisma P2002) is thrown as `taken()` says, anything else as it came. */
export async function unlessTaken<T>(write: () => Promise<T>, taken: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw taken();
    throw error;
  }
}
