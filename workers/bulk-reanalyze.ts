import type { AppContext } from '../src/context.ts';
import { runBulkReanalysisBatch } from '../src/calls/bulk-reanalysis.ts';
import { task } from '../src/jobs/catalog.ts';

/** Task `bulk-reanalyze`: one batch of a bulk re-analysis; it queues the next itself. */
export function createBulkReanalyzeTask(app: AppContext) {
  return task('bulk-reanalyze', async ({ bulkId }) => {
    await runBulkReanalysisBatch(app.db, bulkId);
  });
}
