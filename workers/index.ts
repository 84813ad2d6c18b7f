import type { TaskList } from 'graphile-worker';
import type { AppContext } from '../src/app/context.ts';
import { createAnalyzeTask } from './analyze.ts';
import { createDeliverWebhookTask } from './deliver-webhook.ts';
import { createHousekeepingTask } from './housekeeping.ts';
import { createTranscribeTask } from './transcribe.ts';

/** The task list; each task file parses its payload with zod before doing anything. */
export function createTaskList(app: AppContext): TaskList {
  return {
    transcribe: createTranscribeTask(app),
    analyze: createAnalyzeTask(app),
    'deliver-webhook': createDeliverWebhookTask(app, app.config.webhookRetryScheduleMs ? { scheduleMs: app.config.webhookRetryScheduleMs } : {}),
    housekeeping: createHousekeepingTask(app),
  };
}

/** Recurring jobs (graphile-worker crontab syntax). */
export const CRONTAB = '0 * * * * housekeeping ?max=1';
