import { createHash, randomBytes } from 'node:crypto';
import { enqueue, type JobName } from '../../workers/jobs.ts';
import type { AppContext } from '../app/context.ts';
import type { Tx } from '../db/client.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import type { WebhookDelivery } from '../generated/prisma/client.ts';
import { CALL_ANALYZED, WEBHOOK_TEST, callAnalyzedEvent, callForWebhook, testEvent } from './payload.ts';

export const DELIVER_WEBHOOK_TASK = 'deliver-webhook' satisfies JobName;

/**
 * The `webhook-id` of a call's analysis: derived from the call and its analysis revision, so a
 * retried analyze job finds the event it already made instead of announcing it again under a new
 * id, while a re-analysis (new revision) is a new event.
 */
export function callAnalyzedEventId(callId: string, analysisRevision: number): string {
  return `msg_${createHash('sha256').update(`${CALL_ANALYZED}:${callId}:${analysisRevision}`).digest('hex').slice(0, 32)}`;
}

/**
 * Queues (or re-queues, after `delayMs`) the delivery job. One job per delivery: the job key makes
 * a second add replace a waiting job. Failed HTTP attempts never throw (the retry schedule is
 * ours), so graphile-worker's own attempts only cover crashes: a database error, or a worker
 * killed mid-attempt whose job the heartbeat unlocks; those must run again, not be dropped.
 */
export async function scheduleDeliveryJob(tx: Tx, deliveryId: string, delayMs = 0): Promise<void> {
  await enqueue(tx, DELIVER_WEBHOOK_TASK, { deliveryId }, { delayMs });
}

/**
 * Records the call.analyzed event and queues its delivery, in the caller's (analyze task's)
 * transaction, so an event exists exactly when the analysis commits. Call only for a call that
 * reached `analyzed`. Returns the new delivery's id, or null when there is no enabled endpoint or
 * this revision was already enqueued.
 */
export async function enqueueCallAnalyzed(
  tx: Tx,
  callId: string,
  analysisRevision: number,
  publicUrl: string,
): Promise<string | null> {
  const call = await tx.call.findUniqueOrThrow({
    where: { id: callId },
    select: { ...callForWebhook, accountId: true },
  });
  const endpoint = await tx.webhookEndpoint.findFirst({
    where: { accountId: call.accountId, enabled: true },
    select: { id: true },
  });
  if (!endpoint) return null;
  const payload = callAnalyzedEvent(call, publicUrl);
  const [inserted] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (id, account_id, endpoint_id, call_id, event_id, event_type, payload)
    VALUES (gen_random_uuid(), ${call.accountId}::uuid, ${endpoint.id}::uuid, ${callId}::uuid,
            ${callAnalyzedEventId(callId, analysisRevision)}, ${CALL_ANALYZED}, ${JSON.stringify(payload)}::jsonb)
    ON CONFLICT (event_id) DO NOTHING
    RETURNING id`;
  if (!inserted) return null;
  await scheduleDeliveryJob(tx, inserted.id);
  return inserted.id;
}

/** A `webhook.test` event through the normal delivery path (one attempt, no retries). */
export async function sendTestEvent(app: AppContext, accountId: string): Promise<WebhookDelivery> {
  const endpoint = await app.db.webhookEndpoint.findUnique({ where: { accountId } });
  if (!endpoint) throw notFound('Webhook endpoint');
  if (!endpoint.enabled) {
    throw new DomainError(
      'webhook_disabled',
      `The webhook endpoint is disabled (${endpoint.disabledReason ?? 'no reason given'}); enable it before sending a test event.`,
    );
  }
  return app.db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.create({
      data: {
        accountId,
        endpointId: endpoint.id,
        eventId: `msg_${randomBytes(16).toString('hex')}`,
        eventType: WEBHOOK_TEST,
        payload: testEvent(accountId),
      },
    });
    await scheduleDeliveryJob(tx, delivery.id);
    return delivery;
  });
}
