import type { AppContext } from '../src/context.ts';
import { task } from '../src/jobs/catalog.ts';
import { sweepLeftovers } from '../src/ops/housekeeping.ts';

/** Task `housekeeping` (hourly): upload leftovers, unreferenced recordings, ended rate-limit windows. */
export function createHousekeepingTask(app: AppContext) {
  return task('housekeeping', () => sweepLeftovers(app));
}
