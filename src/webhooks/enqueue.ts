import { createHash, randomBytes } from 'node:crypto';
import { enqueue, type JobName } from '../jobs/catalog.ts';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { notFound } from '../domain/errors.ts';
import type { Prisma, WebhookDelivery } from '../generated/prisma/client.ts';
import { webhookDisabled } from './errors.ts';
import { WebhookEvent } from './kit/events.ts';
import {
  CALL_ANALYZED,
  CALL_FAILED,
  CALL_REVIEWED,
  callAnalyzedEvent,
  callFailedEvent,
  callReviewedEvent,
  callForWebhook,
  testEvent,
  WEBHOOK_DISABLED,
  webhookDisabledEvent,
} from './payload.ts';

export const DELIVER_WEBHOOK_TASK = 'deliver-webhook' satisfies JobName;

const eventIdOf = (...parts: (string | number)[]) =>
  `msg_${createHash('sha256').update(parts.join(':')).digest('hex').slice(0, 32)}`;

/**
 * The `webhook-id` of a call's analysis: derived from the call and its analysis revision, so a
 * retried analyze job finds the event it already made instead of announcing it again under a new
 * id, while a re-analysis (new revision) is a new event. Every endpoint gets the same id.
 */
export function callAnalyzedEventId(callId: string, analysisRevision: number): string {
  return eventIdOf(CALL_ANALYZED, callId, analysisRevision);
}

/**
 * Queues (or re-queues, after `delayMs`) the delivery job: the one place the deliver-webhook job
 * is added. One job per delivery: the job key makes a second add replace a waiting job. Failed
 * HTTP attempts never throw (the retry schedule is ours), so graphile-worker's own attempts only
 * cover crashes: a database error, or a worker killed mid-attempt whose job the heartbeat
 * unlocks; those must run again, not be dropped.
 */
export async function scheduleDeliveryJob(tx: Tx, deliveryId: string, delayMs = 0): Promise<void> {
  await enqueue(tx, DELIVER_WEBHOOK_TASK, { deliveryId }, { delayMs });
}

interface EventToFanOut {
  accountId: string;
  eventId: string;
  type: WebhookEvent['type'];
  /** Built only when some endpoint takes the event. */
  payload: () => WebhookEvent;
  /** For call events, the call's campaign: endpoints filtered to another campaign skip the event. */
  call?: { id: string; campaignId: string | null };
  /** An endpoint that must not get it (the one a webhook.disabled event is about). */
  exceptEndpointId?: string;
}

/**
 * Records one event for every enabled endpoint of the account that subscribes to its type (and,
 * for call events, whose campaign filter matches), and queues their deliveries, in the caller's
 * transaction. The payload is checked against the published schema first: a body that breaks the
 * contract is a bug to surface, never something to send. Returns the new deliveries' ids (none
 * for endpoints that already have this event).
 */
async function fanOut(tx: Tx, event: EventToFanOut): Promise<string[]> {
  // Most accounts have no endpoint for most event types: then nothing is built or checked, so the
  // caller's transaction (failing a call, say) never depends on the webhook contract.
  const [wanted] = await tx.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM webhook_endpoints
                    WHERE account_id = ${event.accountId}::uuid AND enabled AND ${event.type} = ANY (event_types)) AS any`;
  if (!wanted?.any) return [];
  const payload = WebhookEvent.parse(event.payload());
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (id, account_id, endpoint_id, call_id, event_id, event_type, payload)
    SELECT gen_random_uuid(), e.account_id, e.id, ${event.call?.id ?? null}::uuid, ${event.eventId},
           ${payload.type}, ${JSON.stringify(payload)}::jsonb
      FROM webhook_endpoints e
     WHERE e.account_id = ${event.accountId}::uuid
       AND e.enabled
       AND ${payload.type} = ANY (e.event_types)
       -- The campaign filter is about calls; other events (webhook.disabled) ignore it.
       AND (${!event.call} OR e.campaign_id IS NULL OR e.campaign_id = ${event.call?.campaignId ?? null}::uuid)
       AND e.id IS DISTINCT FROM ${event.exceptEndpointId ?? null}::uuid
     ORDER BY e.created_at, e.id
    ON CONFLICT (endpoint_id, event_id) DO NOTHING
    RETURNING id`;
  for (const { id } of inserted) await scheduleDeliveryJob(tx, id);
  return inserted.map((r) => r.id);
}

async function loadCall(tx: Tx, callId: string) {
  return tx.call.findUniqueOrThrow({
    where: { id: callId },
    select: { ...callForWebhook, accountId: true, campaignId: true },
  });
}

/**
 * The call.analyzed event, in the analyze task's transaction, so an event exists exactly when the
 * analysis commits. Call only for a call that reached `analyzed`. Returns the first new
 * delivery's id, or null when no endpoint takes it or this revision was already enqueued.
 */
export async function enqueueCallAnalyzed(
  tx: Tx,
  callId: string,
  analysisRevision: number,
  publicUrl: string,
): Promise<string | null> {
  const call = await loadCall(tx, callId);
  const ids = await fanOut(tx, {
    accountId: call.accountId,
    eventId: callAnalyzedEventId(callId, analysisRevision),
    type: 'call.analyzed',
    payload: () => callAnalyzedEvent(call, publicUrl),
    call,
  });
  return ids[0] ?? null;
}

/**
 * Rewrites the stored body of the call's call.analyzed deliveries from the call as it is now (after
 * a review), keeping their event ids: a retry, a redelivery or a replay then sends the reviewed
 * result, and a receiver deduplicating on webhook-id still sees one event per analysis.
 */
export async function refreshCallAnalyzedPayloads(tx: Tx, callId: string, publicUrl: string): Promise<void> {
  const deliveries = await tx.webhookDelivery.findMany({
    where: { callId, eventType: CALL_ANALYZED },
    select: { id: true },
  });
  if (deliveries.length === 0) return;
  const call = await loadCall(tx, callId);
  const payload = WebhookEvent.parse(callAnalyzedEvent(call, publicUrl)) as Prisma.InputJsonValue;
  await tx.webhookDelivery.updateMany({ where: { id: { in: deliveries.map((d) => d.id) } }, data: { payload } });
}

/** The call.reviewed event (opt-in) of one override, in the review's transaction; one event per override. */
export async function enqueueCallReviewed(
  tx: Tx,
  callId: string,
  reviewId: string,
  publicUrl: string,
): Promise<string[]> {
  const call = await loadCall(tx, callId);
  const review = await tx.criterionReview.findUniqueOrThrow({ where: { id: BigInt(reviewId) } });
  return fanOut(tx, {
    accountId: call.accountId,
    eventId: eventIdOf(CALL_REVIEWED, callId, reviewId),
    type: 'call.reviewed',
    payload: () => callReviewedEvent(call, review, publicUrl),
    call,
  });
}

/** The call.failed event (opt-in), in the transaction that fails the call. A call fails once. */
export async function enqueueCallFailed(tx: Tx, callId: string, publicUrl: string): Promise<string[]> {
  const call = await loadCall(tx, callId);
  return fanOut(tx, {
    accountId: call.accountId,
    eventId: eventIdOf(CALL_FAILED, callId),
    type: 'call.failed',
    payload: () => callFailedEvent(call, publicUrl),
    call,
  });
}

/** Tells the account's other endpoints subscribed to webhook.disabled that `endpointId` was disabled. */
export async function enqueueWebhookDisabled(tx: Tx, endpointId: string): Promise<string[]> {
  const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
  return fanOut(tx, {
    accountId: endpoint.accountId,
    eventId: eventIdOf(WEBHOOK_DISABLED, endpoint.id, endpoint.disabledAt?.toISOString() ?? ''),
    type: 'webhook.disabled',
    payload: () => webhookDisabledEvent(endpoint),
    exceptEndpointId: endpoint.id,
  });
}

/**
 * A coaching event (opt-in), in the transaction that assigns or completes the item; one event per
 * item and type. The call's campaign filter applies: coaching is about a call.
 */
export async function enqueueCoachingEvent(
  tx: Tx,
  item: { id: string; accountId: string; call: { id: string; campaignId: string | null } },
  type: 'coaching.assigned' | 'coaching.completed',
  payload: () => WebhookEvent,
): Promise<string[]> {
  return fanOut(tx, {
    accountId: item.accountId,
    eventId: eventIdOf(type, item.id),
    type,
    payload,
    call: item.call,
  });
}

/** A `webhook.test` event to one endpoint (the first by default), one attempt, no retries. */
export async function sendTestEvent(app: AppContext, accountId: string, id?: string | null): Promise<WebhookDelivery> {
  const endpoint = await app.db.webhookEndpoint.findFirst({
    where: { accountId, ...(id ? { id } : {}) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  if (!endpoint) throw notFound('Webhook endpoint');
  if (!endpoint.enabled) throw webhookDisabled(endpoint.disabledReason, 'sending a test event');
  return app.db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.create({
      data: {
        accountId,
        endpointId: endpoint.id,
        eventId: `msg_${randomBytes(16).toString('hex')}`,
        eventType: 'webhook.test',
        payload: WebhookEvent.parse(testEvent(accountId)) as Prisma.InputJsonValue,
      },
    });
    await scheduleDeliveryJob(tx, delivery.id);
    return delivery;
  });
}
