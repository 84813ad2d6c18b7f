import type { TaskList } from 'graphile-worker';
import type { AppContext } from '../src/app/context.ts';

/** The task list; each task file parses its payload with zod before doing anything. */
export function createTaskList(app: AppContext): TaskList {
  void app;
  return {};
}
