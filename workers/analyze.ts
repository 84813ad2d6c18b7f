import type { AppContext } from '../src/context.ts';
import { attemptOf } from '../src/jobs/attempt.ts';
import { task } from '../src/jobs/catalog.ts';
import { type AnalyzeWith, analyzeTranscribedCall, configuredLlm } from '../src/calls/analyze-call.ts';

/** Task `analyze`: scores a transcribed call (src/calls/analyze-call.ts). */
export function createAnalyzeTask(
  app: AppContext,
  llm: AnalyzeWith['llm'] = configuredLlm(app),
  engines: AnalyzeWith['engines'] = [],
) {
  return task('analyze', (payload, helpers) =>
    analyzeTranscribedCall(app, { llm, engines }, payload, attemptOf(helpers)),
  );
}
