import type { AppContext } from '../src/context.ts';
import { type DeliveryOptions, deliverWebhook } from '../src/webhooks/deliver.ts';
import { task } from '../src/jobs/catalog.ts';

/** Task `deliver-webhook`: one attempt of one webhook delivery. */
export function createDeliverWebhookTask(app: AppContext, options: DeliveryOptions = {}) {
  return task('deliver-webhook', async ({ deliveryId }) => {
    await deliverWebhook(app, deliveryId, options);
  });
}
