import type { TaskList } from 'graphile-worker';
import type { AppContext } from '../src/context.ts';
import { createAnalyzeTask } from './analyze.ts';
import { createDeleteCallsTask } from './delete-calls.ts';
import { createBulkReanalyzeTask } from './bulk-reanalyze.ts';
import { createDeliverWebhookTask } from './deliver-webhook.ts';
import { createHousekeepingTask } from './housekeeping.ts';
import type { JobName, NamedTask } from '../src/jobs/catalog.ts';
import { createReplayWebhooksTask } from './replay-webhooks.ts';
import { createRetentionTask } from './retention.ts';
import { createTranscribeTask } from './transcribe.ts';
import { jobTaskList } from '../src/jobs/worker-role.ts';
import type { TranscriptionEngine } from '../src/transcription/index.ts';

/**
 * The task list, one consumer per name of the job catalog (src/jobs/catalog.ts): the type makes a
 * missing task, an extra one or a task filed under another job's name a compile error. Each task
 * parses its payload with the catalog's zod schema before doing anything.
 */
export function createTaskList(app: AppContext, engines: TranscriptionEngine[]): TaskList {
  // One set of recognition threads (workers/start.ts): analysis scores phrases on the models transcription loaded.
  const tasks: { [N in JobName]: NamedTask<N> } = {
    transcribe: createTranscribeTask(app, engines),
    analyze: createAnalyzeTask(app, undefined, engines),
    'deliver-webhook': createDeliverWebhookTask(
      app,
      app.config.webhookRetryScheduleMs ? { scheduleMs: app.config.webhookRetryScheduleMs } : {},
    ),
    'replay-webhooks': createReplayWebhooksTask(app),
    'delete-calls': createDeleteCallsTask(app),
    retention: createRetentionTask(app),
    'bulk-reanalyze': createBulkReanalyzeTask(app),
    housekeeping: createHousekeepingTask(app),
  };
  return jobTaskList(app, tasks);
}

/** Recurring jobs (graphile-worker crontab syntax): housekeeping hourly, retention daily at 03:30 UTC. */
export const CRONTAB = ['0 * * * * housekeeping ?max=1', '30 3 * * * retention ?max=1'].join('\n');
