import type { AppContext } from '../src/context.ts';
import { filterFromDetail, runBulkDeletion } from '../src/calls/call-deletion.ts';
import { task } from '../src/jobs/catalog.ts';

/** A bulk deletion too large for one request: batch after batch until nothing matches. */
export function createDeleteCallsTask(app: AppContext) {
  return task('delete-calls', async (p) => {
    const deleted = await runBulkDeletion(app, {
      accountId: p.accountId,
      deletedById: p.deletedById,
      filter: filterFromDetail(p.filter),
      createdBefore: new Date(p.createdBefore),
    });
    app.log.info({ accountId: p.accountId, deleted }, 'bulk deletion finished');
  });
}
