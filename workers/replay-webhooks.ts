import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppContext } from '../src/app/context.ts';
import type { DeliveryOptions } from '../src/webhooks/deliver.ts';
import { runReplay } from '../src/webhooks/replay.ts';

const Payload = z.object({ replayId: z.uuid() });

/** Task `replay-webhooks` (REPLAY_WEBHOOKS_TASK): one batch of a bulk replay; it queues the next itself. */
export function createReplayWebhooksTask(app: AppContext, options: DeliveryOptions = {}): Task {
  return async (payload) => {
    const { replayId } = Payload.parse(payload);
    await runReplay(app, replayId, options);
  };
}
