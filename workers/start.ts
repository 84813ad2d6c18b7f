import { EventEmitter } from 'node:events';
import type { WorkerEvents } from 'graphile-worker';
import type { AppContext } from '../src/context.ts';
import { withApplicationName } from '../src/db/urls.ts';
import { startHeartbeat } from './heartbeat.ts';
import { CRONTAB, createTaskList } from './index.ts';
import { defaultEngines } from './transcribe.ts';
import { closeEngines } from '../src/transcription/index.ts';
import { workerLogger } from './logger.ts';
import { type SupervisedRunner, startSupervisedRunner } from './supervised-runner.ts';

export interface WorkerRole {
  runner: SupervisedRunner;
  /** Lets running jobs finish; after `graceMs` the ones still running are handed back. */
  stop(graceMs?: number): Promise<void>;
}

/** The worker role of a process: the task list on a supervised graphile-worker runner, with heartbeats. */
export async function startWorkerRole(app: AppContext): Promise<WorkerRole> {
  const { config, log } = app;
  // Created before run() so the heartbeat sees the workers run() creates.
  const events = new EventEmitter() as WorkerEvents;
  const heartbeat = startHeartbeat(app, events, {
    staleMs: config.workerStaleSeconds * 1000,
    intervalMs: Math.min(5000, (config.workerStaleSeconds * 1000) / 3),
  });
  const engines = defaultEngines(app);
  const runner = await startSupervisedRunner(
    {
      events,
      // graphile-worker LISTENs for new jobs: a session of its own, never through a transaction pooler.
      connectionString: withApplicationName(config.databaseDirectUrl ?? config.databaseUrl!, 'escucha-worker-jobs'),
      concurrency: config.workerConcurrency,
      taskList: createTaskList(app, engines),
      crontab: CRONTAB,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: workerLogger(log),
    },
    log,
  );
  const stopHeartbeat = await heartbeat;
  log.info({ concurrency: config.workerConcurrency }, 'worker running');
  return {
    runner,
    async stop(graceMs?: number) {
      // Heartbeats go on while jobs finish, so no other worker takes them as abandoned meanwhile.
      await runner.stop(graceMs);
      await stopHeartbeat();
      // A job handed back at the end of the grace period may still be recognising a chunk: the
      // threads stop once it is done, so the process exits cleanly rather than aborting.
      await closeEngines(engines);
    },
  };
}
