import { run, type Runner, type RunnerOptions, type WorkerEvents, type WorkerPool } from 'graphile-worker';
import type { Logger } from '../log.ts';

export interface SupervisedRunner {
  /**
   * Lets running jobs finish; after `graceMs` (default: no limit) the ones still running are handed
   * back (failed with a retry, unlocked) so another worker runs them at once.
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * graphile-worker stops its pool for good when PostgreSQL goes away mid-job (it cannot record the
 * job's outcome). A restarting database must not leave the worker dead, so the runner is started
 * again, with backoff, whenever it ends without being asked to.
 */
export async function startSupervisedRunner(
  options: RunnerOptions & { events: WorkerEvents },
  log: Logger,
): Promise<SupervisedRunner> {
  let stopping = false;
  let current: Runner | null = null;
  // The pools of the running runner, to hand their jobs back when the shutdown grace ends.
  const pools = new Set<WorkerPool>();
  options.events.on('pool:create', ({ workerPool }) => void pools.add(workerPool));
  options.events.on('pool:release', ({ workerPool }) => void pools.delete(workerPool));
  let delay = 1000;
  let timer: NodeJS.Timeout | null = null;

  const start = async (): Promise<void> => {
    current = await run({
      ...options,
      preset: {
        ...options.preset,
        // With batching, a failed "complete"/"fail" write reaches the pool's error handler (which
        // stops the pool, and we restart it) instead of becoming an unhandled rejection.
        worker: { ...options.preset?.worker, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
      },
    });
    delay = 1000;
    const runner = current;
    runner.promise.then(
      () => restartUnlessStopping(runner, null),
      (error) => restartUnlessStopping(runner, error),
    );
  };

  const restartUnlessStopping = (runner: Runner, error: unknown) => {
    if (stopping || runner !== current) return;
    current = null;
    log.error({ err: error }, `worker stopped unexpectedly; restarting in ${delay} ms`);
    const attempt = () => {
      timer = null;
      if (stopping) return;
      start().catch((err) => {
        delay = Math.min(delay * 2, 30_000);
        log.warn({ err }, `worker could not start; retrying in ${delay} ms`);
        timer = setTimeout(attempt, delay);
      });
    };
    timer = setTimeout(attempt, delay);
  };

  await start();
  return {
    async stop(graceMs = Number.POSITIVE_INFINITY) {
      stopping = true;
      if (timer) clearTimeout(timer);
      const runner = current;
      if (!runner) return;
      const graceful = runner.stop();
      if (Number.isFinite(graceMs)) {
        let deadline: NodeJS.Timeout | undefined;
        const late = await Promise.race([
          graceful.then(
            () => false,
            () => false,
          ),
          new Promise<boolean>((resolve) => (deadline = setTimeout(() => resolve(true), graceMs))),
        ]);
        clearTimeout(deadline);
        if (late) {
          // The jobs are failed with a retry and unlocked now; their code may still be running,
          // and the graceful promise waits for it, so it is not awaited (the process is exiting).
          graceful.catch(() => {});
          await Promise.allSettled(
            [...pools].map((pool) => pool.forcefulShutdown('shutdown grace period over; job handed back')),
          );
          return;
        }
      }
      await graceful;
    },
  };
}
