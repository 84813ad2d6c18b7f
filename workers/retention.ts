import type { AppContext } from '../src/context.ts';
import { applyRetention } from '../src/calls/retention.ts';
import { task } from '../src/jobs/catalog.ts';

/** Daily: recordings and transcripts past their account's retention period are removed. */
export function createRetentionTask(app: AppContext) {
  return task('retention', async () => {
    const run = await applyRetention(app);
    if (run.recordings || run.transcripts) app.log.info(run, 'retention removed recordings and transcripts');
  });
}
