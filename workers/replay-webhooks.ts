import type { AppContext } from '../src/context.ts';
import type { DeliveryOptions } from '../src/webhooks/deliver.ts';
import { runReplay } from '../src/webhooks/replay.ts';
import { task } from '../src/jobs/catalog.ts';

/** Task `replay-webhooks`: one batch of a bulk replay; it queues the next itself. */
export function createReplayWebhooksTask(app: AppContext, options: DeliveryOptions = {}) {
  return task('replay-webhooks', async ({ replayId }) => {
    await runReplay(app, replayId, options);
  });
}
