import pg from 'pg';
import type { Logger } from '../log.ts';

/** Shown in pg_stat_activity.application_name for graphile-worker's connections (docs/operations/scaling.md). */
export const JOBS_APPLICATION_NAME = 'escucha-worker-jobs';

/**
 * Connections of the worker's job pool: graphile-worker's own default (10), which it used when it
 * made the pool itself; more only when WORKER_CONCURRENCY would not fit, since graphile-worker takes
 * one per job being fetched or recorded besides its LISTEN, the cron and the lock sweep.
 */
export function jobPoolSize(concurrency: number): number {
  return Math.max(10, concurrency + 3);
}

/** How long stopping waits for the server to close the pool's connections (an unreachable server never does). */
const CLOSE_WAIT_MS = 5_000;

export interface JobPool {
  /** What graphile-worker is given as `pgPool`. */
  readonly pool: pg.Pool;
  /** Ends the pool; resolves once the server has closed each of its connections. */
  end(): Promise<void>;
}

/**
 * The pg pool graphile-worker runs on, made by us once per worker role rather than by graphile-worker
 * once per run(). graphile-worker 0.18 ends a pool of its own without waiting and takes its 'error'
 * handler off at once: a connection the server terminated just then (a restarting database or
 * PgBouncer, DROP DATABASE … WITH (FORCE)) was an 'error' event nobody listened to, which ends the
 * process. Here the handlers stay for the pool's whole life, the pool outlives the runner's restarts,
 * and the role ends it, waiting for its connections to close, once the runner has stopped.
 */
export function createJobPool(connectionString: string, concurrency: number, log: Logger): JobPool {
  const pool = new pg.Pool({
    connectionString,
    max: jobPoolSize(concurrency),
    // Unless the address names one already (the address wins in pg), as the app's pool does.
    application_name: JOBS_APPLICATION_NAME,
  });
  // One warning per connection the server closes (pg may report it twice: the server's message, then
  // the socket's end), from the connection's own handler, which also hears it while graphile-worker
  // holds it (its LISTEN, a query in flight: graphile-worker sees that failure through its query or its
  // own handler, which it takes off later). The pool's handler, there for the pool's whole life, then
  // has nothing left to say.
  const closed = new WeakSet<pg.ClientBase>();
  const dropped = (client: pg.ClientBase, err: Error) => {
    if (closed.has(client)) return;
    closed.add(client);
    log.warn({ err }, 'a job-queue database connection was closed; the next query opens another');
  };
  // pg's end() resolves once it has asked its connections to close, not once they are: 'remove' comes
  // when one's socket has closed (by then the server has let go of its session).
  const open = new Set<pg.ClientBase>();
  let allClosed: (() => void) | null = null;
  pool.on('connect', (client) => {
    open.add(client);
    client.on('error', (err) => dropped(client, err));
  });
  pool.on('remove', (client) => {
    open.delete(client);
    if (!open.size) allClosed?.();
  });
  pool.on('error', (err, client) => dropped(client, err));
  return {
    pool,
    async end() {
      // Bounded as a whole: pg's end() itself waits for every connection checked out to be released, and
      // one graphile-worker still holds after a grace period ran out (a query to an unreachable server)
      // must not keep the process from exiting.
      const closedAll = (async () => {
        await pool.end();
        if (open.size) await new Promise<void>((resolve) => (allClosed = resolve));
      })();
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        closedAll.then(
          () => false,
          () => false,
        ),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), CLOSE_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (late)
        log.warn(
          { open: pool.totalCount },
          `job-queue database connections still open ${CLOSE_WAIT_MS} ms after stopping`,
        );
    },
  };
}
