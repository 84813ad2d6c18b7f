import type { AppContext } from '../app/context.ts';
import { type OperatorFault, operatorRetryDelaySeconds } from './faults.ts';

/**
 * transcribing → queued, with the reason in the call's history, and the transcription job scheduled
 * again after a backoff. The job key is the intake's, so the call keeps one pending job (graphile-worker
 * gives a key held by a running job to the new job). `waits` counts the waits, for the backoff only:
 * the call waits as long as the operator needs, never failing for it.
 */
export async function waitForOperator(app: AppContext, callId: string, fault: OperatorFault, waits: number) {
  const delay = operatorRetryDelaySeconds(waits, app.config.operatorRetryMaxSeconds);
  await app.db.$transaction(async (tx) => {
    const moved = await tx.call.updateMany({
      where: { id: callId, status: 'transcribing' },
      data: { status: 'queued' },
    });
    if (moved.count === 0) return;
    await tx.callEvent.create({
      data: { callId, status: 'queued', detail: `waiting for the service: ${fault.message}`.slice(0, 500) },
    });
    await tx.$executeRaw`SELECT graphile_worker.add_job('transcribe', json_build_object('callId', ${callId}::text, 'waits', ${waits + 1}::int), job_key := ${`transcribe:${callId}`}, run_at := now() + make_interval(secs => ${delay}::float8), max_attempts := 8)`;
  });
  app.faults?.report(fault);
  app.log.warn(
    { callId, check: fault.check, retryInSeconds: delay, err: fault.message },
    'call waits for the operator',
  );
}
