import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppContext } from '../src/app/context.ts';
import { deliverWebhook, type DeliveryOptions } from '../src/webhooks/deliver.ts';

const Payload = z.object({ deliveryId: z.uuid() });

/** Task `deliver-webhook` (DELIVER_WEBHOOK_TASK): one attempt of one webhook delivery. */
export function createDeliverWebhookTask(app: AppContext, options: DeliveryOptions = {}): Task {
  return async (payload) => {
    const { deliveryId } = Payload.parse(payload);
    await deliverWebhook(app, deliveryId, options);
  };
}
