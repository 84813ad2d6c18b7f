import type { AppContext } from '../src/context.ts';
import { runWorkerRole, type WorkerRole } from '../src/jobs/worker-role.ts';
import { closePipelineEngines, pipelineEngines } from '../src/calls/transcribe-call.ts';
import { CRONTAB, createTaskList } from './index.ts';

/** The worker role of a process: this folder's task list on the runner of src/jobs/worker-role.ts. */
export function startWorkerRole(app: AppContext): Promise<WorkerRole> {
  // One set of recognition threads for the task list, closed after the last job stops.
  const engines = pipelineEngines(app);
  return runWorkerRole(app, createTaskList(app, engines), CRONTAB, () => closePipelineEngines(engines));
}
