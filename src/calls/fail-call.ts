import type { AppContext } from '../context.ts';
import { releaseMinutes } from '../accounts/usage.ts';
import { transition } from '../lifecycle/transition.ts';
import { enqueueCallFailed } from '../webhooks/enqueue.ts';

/**
 * transcribing → failed, releasing the reservation (no charge); a no-op if the call moved on. The
 * recording's length is kept when it was known: the list, CSV and webhook show it, not "—".
 */
export async function failCall(
  app: AppContext,
  callId: string,
  reason: string,
  detail: string,
  durationSeconds?: number,
): Promise<void> {
  await app.db.$transaction(async (tx) => {
    const moved = await transition(tx, callId, 'transcribing', 'failed', {
      detail: reason,
      data: {
        failureReason: reason,
        failureDetail: detail.slice(0, 500),
        ...(durationSeconds !== undefined ? { durationSeconds } : {}),
      },
    });
    if (!moved) return;
    await releaseMinutes(tx, callId);
    // Opt-in event: endpoints that did not subscribe to call.failed get nothing.
    await enqueueCallFailed(tx, callId, app.config.publicUrl);
  });
}
