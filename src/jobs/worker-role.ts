import { EventEmitter } from 'node:events';
import type { Task, TaskList, WorkerEvents } from 'graphile-worker';
import type { AppContext } from '../context.ts';
import { logContext } from '../log.ts';
import { type JobName, JOBS, type NamedTask } from './catalog.ts';
import { startHeartbeat } from './heartbeat.ts';
import { createJobPool } from './job-pool.ts';
import { workerLogger } from './worker-logger.ts';
import { type SupervisedRunner, startSupervisedRunner } from './supervised-runner.ts';

export interface WorkerRole {
  runner: SupervisedRunner;
  /** Lets running jobs finish; after `graceMs` the ones still running are handed back. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The worker role of a process: the task list (workers/index.ts, passed in by workers/start.ts so
 * nothing here imports the adapters) on a supervised graphile-worker runner, with heartbeats.
 */
export async function runWorkerRole(
  app: AppContext,
  taskList: TaskList,
  crontab: string,
  /** Runs once the jobs are done or handed back (the recognition threads close here). */
  afterStop: () => Promise<void> = async () => {},
): Promise<WorkerRole> {
  const { config, log } = app;
  // graphile-worker LISTENs for new jobs: a session of its own, never through a transaction pooler.
  // One pool for the role's life: every runner the supervisor starts, and the heartbeat's unlocking.
  const jobPool = createJobPool(config.databaseDirectUrl ?? config.databaseUrl!, config.workerConcurrency, log);
  // Created before run() so the heartbeat sees the workers run() creates.
  const events = new EventEmitter() as WorkerEvents;
  const heartbeat = startHeartbeat(app, events, jobPool.pool, {
    staleMs: config.workerStaleSeconds * 1000,
    intervalMs: Math.min(5000, (config.workerStaleSeconds * 1000) / 3),
  });
  // A heartbeat that fails while run() is still starting is met in the catch below, not as an unhandled rejection.
  heartbeat.catch(() => {});
  let runner: SupervisedRunner | undefined;
  let stopHeartbeat: () => Promise<void>;
  try {
    runner = await startSupervisedRunner(
      {
        events,
        pgPool: jobPool.pool,
        concurrency: config.workerConcurrency,
        taskList,
        crontab,
        noHandleSignals: true,
        pollInterval: 1000,
        logger: workerLogger(log),
      },
      log,
    );
    stopHeartbeat = await heartbeat;
  } catch (error) {
    // Nothing runs on the pool any more: the process is exiting on this error, without a dangling socket.
    // A runner already started holds its LISTEN connection until stopped (the pool's end waits for it).
    await runner?.stop(0);
    await (await heartbeat.catch(() => null))?.();
    await jobPool.end();
    throw error;
  }
  log.info({ concurrency: config.workerConcurrency }, 'worker running');
  const started = runner;
  return {
    runner: started,
    async stop(graceMs?: number) {
      // Heartbeats go on while jobs finish, so no other worker takes them as abandoned meanwhile.
      await started.stop(graceMs);
      await stopHeartbeat();
      // A job handed back at the end of the grace period may still be recognising a chunk: the
      // threads stop once it is done, so the process exits cleanly rather than aborting.
      await afterStop();
      // Last, and awaited: every connection is closed when the role has stopped. (A job handed back
      // whose code still ran past this point would find the pool ended: graphile-worker logs that it
      // could not record it, and the job, failed already, runs again elsewhere.)
      await jobPool.end();
    },
  };
}

/** graphile-worker's task list from one task per job name, each run in its job's context. */
export function jobTaskList(app: AppContext, tasks: { [N in JobName]: NamedTask<N> }): TaskList {
  return Object.fromEntries(
    (Object.keys(JOBS) as JobName[]).map((name) => [name, withJobContext(app, name, tasks[name])]),
  );
}

/**
 * Every log line written while a job runs carries its id, task and attempt, as requests carry reqId;
 * its run time goes to escucha_job_duration_seconds.
 */
function withJobContext(app: AppContext, name: string, task: Task): Task {
  return (payload, helpers) =>
    logContext.run({ jobId: helpers.job.id, task: name, attempt: helpers.job.attempts }, async () => {
      const end = app.metrics?.jobDuration.startTimer({ task: name });
      try {
        await task(payload, helpers);
        end?.({ outcome: 'ok' });
      } catch (error) {
        end?.({ outcome: 'error' });
        throw error;
      }
    });
}
