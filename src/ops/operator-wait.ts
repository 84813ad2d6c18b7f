import type { AppContext } from '../context.ts';
import { transition } from '../lifecycle/transition.ts';
import { enqueue } from '../jobs/catalog.ts';
import type { OperatorFault } from '../audio/failure.ts';
import { operatorRetryDelaySeconds } from './faults.ts';

/**
 * transcribing → queued, with the reason in the call's history, and the transcription job scheduled
 * again after a backoff. The job key is the intake's, so the call keeps one pending job (graphile-worker
 * gives a key held by a running job to the new job). `waits` counts the waits, for the backoff only:
 * the call waits as long as the operator needs, never failing for it.
 */
export async function waitForOperator(app: AppContext, callId: string, fault: OperatorFault, waits: number) {
  const delay = operatorRetryDelaySeconds(waits, app.config.operatorRetryMaxSeconds);
  await app.db.$transaction(async (tx) => {
    const moved = await transition(tx, callId, 'transcribing', 'queued', {
      detail: `waiting for the service: ${fault.message}`.slice(0, 500),
    });
    if (moved) await enqueue(tx, 'transcribe', { callId, waits: waits + 1 }, { delayMs: delay * 1000 });
  });
  app.faults?.report(fault);
  app.log.warn(
    { callId, check: fault.check, retryInSeconds: delay, err: fault.message },
    'call waits for the operator',
  );
}
