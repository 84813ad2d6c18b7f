import type { AppContext } from '../src/context.ts';
import { runWorkerRole, type WorkerRole } from '../src/jobs/worker-role.ts';
import { CRONTAB, createTaskList } from './index.ts';

/** The worker role of a process: this folder's task list on the runner of src/jobs/worker-role.ts. */
export function startWorkerRole(app: AppContext): Promise<WorkerRole> {
  return runWorkerRole(app, createTaskList(app), CRONTAB);
}
