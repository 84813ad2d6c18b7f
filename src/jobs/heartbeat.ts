import type { WorkerEvents } from 'graphile-worker';
import { makeWorkerUtils } from 'graphile-worker';
import type { AppContext } from '../app/context.ts';

export interface HeartbeatOptions {
  intervalMs?: number;
  /** A worker silent for this long is presumed dead and its jobs are unlocked for others. */
  staleMs?: number;
}

/**
 * Lets a killed worker's jobs be retried within a minute instead of graphile-worker's four-hour
 * lock timeout: every process beats for its own workers and sweeps for stale ones.
 */
export async function startHeartbeat(app: AppContext, events: WorkerEvents, opts: HeartbeatOptions = {}): Promise<() => Promise<void>> {
  const intervalMs = opts.intervalMs ?? 5_000;
  const staleMs = opts.staleMs ?? 60_000;
  const workerIds = new Set<string>();
  // graphile-worker 0.18 locks jobs with the pool's id, so that is what beats.
  events.on('pool:create', ({ workerPool }) => void workerIds.add(workerPool.id));
  events.on('pool:release', ({ workerPool }) => void workerIds.delete(workerPool.id));
  const utils = await makeWorkerUtils({ connectionString: app.config.databaseUrl! });

  const beat = async () => {
    try {
      const ids = [...workerIds];
      if (ids.length) {
        await app.db.$executeRaw`
          INSERT INTO worker_heartbeats (worker_id, last_seen_at)
          SELECT unnest(${ids}::text[]), now()
          ON CONFLICT (worker_id) DO UPDATE SET last_seen_at = now()`;
      }
      const stale = await app.db.$queryRaw<{ worker_id: string }[]>`
        DELETE FROM worker_heartbeats
         WHERE last_seen_at < now() - make_interval(secs => ${staleMs / 1000})
        RETURNING worker_id`;
      if (stale.length) {
        const dead = stale.map((s) => s.worker_id);
        await utils.forceUnlockWorkers(dead);
        app.log.warn({ workers: dead }, 'unlocked jobs of workers that stopped beating');
      }
    } catch (error) {
      app.log.error({ err: error }, 'worker heartbeat failed');
    }
  };
  await beat();
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    const ids = [...workerIds];
    if (ids.length) await app.db.$executeRaw`DELETE FROM worker_heartbeats WHERE worker_id = ANY(${ids}::text[])`.catch(() => {});
    await utils.release();
  };
}
