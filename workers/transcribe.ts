import type { AppContext } from '../src/context.ts';
import { attemptOf } from '../src/jobs/attempt.ts';
import { task } from '../src/jobs/catalog.ts';
import { pipelineEngines, transcribeCall } from '../src/calls/transcribe-call.ts';

/** Task `transcribe`: transcribes a queued call (src/calls/transcribe-call.ts). */
export function createTranscribeTask(
  app: AppContext,
  engines: Parameters<typeof transcribeCall>[1] = pipelineEngines(app),
) {
  return task('transcribe', (payload, helpers) => transcribeCall(app, engines, payload, attemptOf(helpers)));
}
