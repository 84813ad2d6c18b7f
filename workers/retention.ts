import type { AppContext } from '../src/app/context.ts';
import { applyRetention } from '../src/domain/retention.ts';
import { task } from './jobs.ts';

/** Daily: recordings and transcripts past their account's retention period are removed. */
export function createRetentionTask(app: AppContext) {
  return task('retention', async () => {
    const run = await applyRetention(app);
    if (run.recordings || run.transcripts) app.log.info(run, 'retention removed recordings and transcripts');
  });
}
