import type { WorkerEvents } from 'graphile-worker';
import { makeWorkerUtils } from 'graphile-worker';
import type pg from 'pg';
import type { AppContext } from '../context.ts';

export interface HeartbeatOptions {
  intervalMs?: number;
  /** A worker silent for this long is presumed dead and its jobs are unlocked for others. */
  staleMs?: number;
}

/**
 * Lets a killed worker's jobs be retried within a minute instead of graphile-worker's four-hour
 * lock timeout: every process beats for its own workers and sweeps for stale ones.
 */
export async function startHeartbeat(
  app: AppContext,
  events: WorkerEvents,
  /** The worker role's job pool (src/jobs/job-pool.ts): unlocking borrows it, and leaves it open. */
  pgPool: pg.Pool,
  opts: HeartbeatOptions = {},
): Promise<() => Promise<void>> {
  const intervalMs = opts.intervalMs ?? 5_000;
  const staleMs = opts.staleMs ?? 60_000;
  const workerIds = new Set<string>();
  // graphile-worker 0.18 locks jobs with the pool's id, so that is what beats.
  let beatNow: (() => Promise<void>) | null = null;
  events.on('pool:create', ({ workerPool }) => {
    workerIds.add(workerPool.id);
    void beatNow?.();
  });
  events.on('pool:release', ({ workerPool }) => void workerIds.delete(workerPool.id));
  const utils = await makeWorkerUtils({ pgPool });

  const beat = async () => {
    try {
      const ids = [...workerIds];
      if (ids.length) {
        await app.db.$executeRaw`
          INSERT INTO worker_heartbeats (worker_id, last_seen_at)
          SELECT unnest(${ids}::text[]), now()
          ON CONFLICT (worker_id) DO UPDATE SET last_seen_at = now()`;
      }
      // Dead: a worker whose heartbeat went stale, or one holding a lock older than the threshold
      // without ever having beaten (killed before its first beat). Never ourselves: a busy event
      // loop may delay our own beat, but we know we are alive.
      const stale = await app.db.$queryRaw<{ worker_id: string }[]>`
        WITH expired AS (
          DELETE FROM worker_heartbeats
           WHERE last_seen_at < now() - make_interval(secs => ${staleMs / 1000})
             AND worker_id <> ALL(${ids}::text[])
          RETURNING worker_id
        )
        SELECT worker_id FROM expired
        UNION
        SELECT DISTINCT j.locked_by FROM graphile_worker.jobs j
         WHERE j.locked_by IS NOT NULL
           AND j.locked_at < now() - make_interval(secs => ${staleMs / 1000})
           AND j.locked_by <> ALL(${ids}::text[])
           AND NOT EXISTS (SELECT 1 FROM worker_heartbeats h WHERE h.worker_id = j.locked_by)`;
      if (stale.length) {
        const dead = stale.map((s) => s.worker_id);
        await utils.forceUnlockWorkers(dead);
        app.log.warn({ workers: dead }, 'unlocked jobs of workers that stopped beating');
      }
    } catch (error) {
      app.log.error({ err: error }, 'worker heartbeat failed');
    }
  };
  beatNow = beat;
  await beat();
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    const ids = [...workerIds];
    if (ids.length)
      await app.db.$executeRaw`DELETE FROM worker_heartbeats WHERE worker_id = ANY(${ids}::text[])`.catch(() => {});
    await utils.release();
  };
}
