import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { notFound } from '../domain/errors.ts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../generated/prisma/client.ts';
import { openSigningSecrets } from './endpoints.ts';
import { enqueueWebhookDisabled, scheduleDeliveryJob } from './enqueue.ts';
import { webhookDisabled } from './errors.ts';
import { WEBHOOK_TEST } from './payload.ts';
import { countWebhookAttempt } from '../ops/metrics.ts';
import { retryAfterMs, sendWebhook, type SendOutcome } from './send.ts';

/** Waits after each failed automatic attempt (docs/api/product-decisions.md); after the last, the delivery fails. */
export const DELIVERY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/** Statuses whose Retry-After is honoured: the receiver is saying "busy, come back later". */
const RETRY_AFTER_STATUSES = new Set([429, 502, 503, 504]);
/** Retry-After may push an attempt this far past its scheduled time, no further. */
const RETRY_AFTER_CAP_MS = 3_600_000;

/** A receiver has this long to answer with a 2xx. */
export const DELIVERY_TIMEOUT_MS = 15_000;

export interface DeliveryOptions {
  /** Overrides DELIVERY_SCHEDULE_MS (tests use milliseconds). */
  scheduleMs?: readonly number[];
  /** Overrides DELIVERY_TIMEOUT_MS. */
  timeoutMs?: number;
}

export type DeliveryWithEndpoint = WebhookDelivery & { endpoint: WebhookEndpoint };

/** ±10%, so endpoints that failed together (an outage) are not retried in one burst. */
function withJitter(ms: number): number {
  return Math.round(ms * (0.9 + Math.random() * 0.2));
}

/**
 * The deliver-webhook job: one automatic attempt, then success, failure or the next attempt
 * queued per the schedule. A delivery no longer pending (delivered meanwhile, e.g. by a manual
 * redelivery) is left alone.
 */
export async function deliverWebhook(
  app: AppContext,
  deliveryId: string,
  options: DeliveryOptions = {},
): Promise<void> {
  const delivery = await app.db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
  if (delivery?.status !== 'pending') return;
  if (!delivery.endpoint.enabled) {
    await app.db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'failed', completedAt: new Date(), nextAttemptAt: null },
    });
    app.log.info({ deliveryId, eventId: delivery.eventId }, 'webhook delivery dropped: endpoint disabled');
    return;
  }
  const outcome = await attempt(app, delivery, options);
  const schedule = delivery.eventType === WEBHOOK_TEST ? [] : (options.scheduleMs ?? DELIVERY_SCHEDULE_MS);
  await record(app, delivery, outcome, { manual: false, schedule });
}

/**
 * A user's "redeliver": one attempt now, with the same webhook-id (receivers deduplicate on it),
 * recorded as manual. It does not touch the automatic schedule unless it succeeds or gets a 410.
 */
export async function redeliver(
  app: AppContext,
  accountId: string,
  deliveryId: string,
  options: DeliveryOptions = {},
): Promise<WebhookAttempt> {
  const delivery = await app.db.webhookDelivery.findFirst({
    where: { id: deliveryId, accountId },
    include: { endpoint: true },
  });
  if (!delivery) throw notFound('Webhook delivery');
  if (!delivery.endpoint.enabled) throw webhookDisabled(delivery.endpoint.disabledReason, 'redelivering');
  return record(app, delivery, await attempt(app, delivery, options), { manual: true, schedule: [] });
}

export async function attempt(
  app: AppContext,
  delivery: DeliveryWithEndpoint,
  options: DeliveryOptions,
): Promise<SendOutcome> {
  let secrets: string[];
  try {
    secrets = openSigningSecrets(app, delivery.endpoint);
  } catch (error) {
    // Recorded like a network failure so an operator sees it in the app and a fixed APP_SECRET
    // lets the scheduled retries go through.
    return {
      statusCode: null,
      durationMs: 0,
      error: (error as Error).message,
      responseExcerpt: null,
      responseHeaders: null,
    };
  }
  const outcome = await sendWebhook({
    url: delivery.endpoint.url,
    secrets,
    eventId: delivery.eventId,
    body: JSON.stringify(delivery.payload),
    allowPrivate: app.config.webhookAllowPrivate,
    timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
  });
  countWebhookAttempt(app.metrics, outcome.statusCode);
  return outcome;
}

export async function record(
  app: AppContext,
  delivery: DeliveryWithEndpoint,
  outcome: SendOutcome,
  opts: { manual: boolean; schedule: readonly number[] },
): Promise<WebhookAttempt> {
  const id = delivery.id;
  const result = await app.db.$transaction(async (tx) => {
    const [counted] = await tx.$queryRaw<{ attempt_count: number }[]>`
      UPDATE webhook_deliveries SET attempt_count = attempt_count + 1 WHERE id = ${id}::uuid
      RETURNING attempt_count`;
    const { responseHeaders, ...rest } = outcome;
    const row = await tx.webhookAttempt.create({
      data: {
        deliveryId: id,
        attemptNumber: counted!.attempt_count,
        manual: opts.manual,
        ...rest,
        ...(responseHeaders && { responseHeaders }),
      },
    });
    const status = outcome.statusCode;

    if (status !== null && status >= 200 && status < 300) {
      await tx.$executeRaw`
        UPDATE webhook_deliveries SET status = 'succeeded', completed_at = now(), next_attempt_at = NULL
         WHERE id = ${id}::uuid`;
      await tx.$executeRaw`
        UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${delivery.endpointId}::uuid AND failing_since IS NOT NULL`;
      return { row, next: 'succeeded' };
    }

    if (status === 410) {
      // 410 Gone is the receiver saying "stop": disable the endpoint rather than keep knocking.
      await disableEndpoint(tx, delivery.endpointId, `The receiver answered 410 Gone on ${utcMinute(new Date())}`);
      await failIfPending(tx, id);
      return { row, next: 'endpoint disabled' };
    }

    if (await disableIfFailingTooLong(tx, delivery.endpointId, app.config.webhookDisableAfterDays)) {
      await failIfPending(tx, id);
      return { row, next: 'endpoint disabled: failing for too long' };
    }

    if (opts.manual) return { row, next: 'unchanged' };
    // Another attempt may have settled it meanwhile (a manual redelivery, or a duplicate run of a
    // job whose worker was presumed dead): then there is nothing left to schedule.
    const [current] = await tx.$queryRaw<
      { status: string }[]
    >`SELECT status FROM webhook_deliveries WHERE id = ${id}::uuid`;
    if (current?.status !== 'pending') return { row, next: 'already settled' };

    const [automatic] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ${id}::uuid AND NOT manual`;
    const wait = opts.schedule[automatic!.n - 1];
    if (wait === undefined) {
      await failIfPending(tx, id);
      return { row, next: 'failed' };
    }
    const delayMs = nextDelayMs(wait, outcome);
    await tx.$executeRaw`
      UPDATE webhook_deliveries SET next_attempt_at = now() + ${delayMs} * interval '1 millisecond'
       WHERE id = ${id}::uuid`;
    await scheduleDeliveryJob(tx, id, delayMs);
    return { row, next: `retry in ${delayMs} ms` };
  });
  app.log.info(
    {
      deliveryId: id,
      eventId: delivery.eventId,
      attempt: result.row.attemptNumber,
      manual: opts.manual,
      statusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      error: outcome.error,
      next: result.next,
    },
    'webhook attempt',
  );
  return result.row;
}

/**
 * The wait before the next automatic attempt: the schedule's (with jitter), or longer when a busy
 * receiver asks for it with Retry-After, but never more than an hour past the scheduled time (a
 * receiver cannot park its events for days by asking).
 */
export function nextDelayMs(scheduledMs: number, outcome: Pick<SendOutcome, 'statusCode' | 'responseHeaders'>) {
  const scheduled = withJitter(scheduledMs);
  if (outcome.statusCode === null || !RETRY_AFTER_STATUSES.has(outcome.statusCode)) return scheduled;
  const asked = retryAfterMs(outcome.responseHeaders?.['retry-after']);
  if (asked === null) return scheduled;
  return Math.max(scheduled, Math.min(asked, scheduledMs + RETRY_AFTER_CAP_MS));
}

const utcMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Disables an enabled endpoint with a reason and tells its sibling endpoints (webhook.disabled). */
async function disableEndpoint(tx: Tx, endpointId: string, reason: string): Promise<boolean> {
  const changed = await tx.$executeRaw`
    UPDATE webhook_endpoints
       SET enabled = false, disabled_reason = ${reason}, disabled_at = now(), updated_at = now()
     WHERE id = ${endpointId}::uuid AND enabled`;
  if (changed > 0) await enqueueWebhookDisabled(tx, endpointId);
  return changed > 0;
}

/**
 * Keeps the endpoint's failure clock (the first failed attempt since its last success) and
 * disables it once every attempt has failed for `days` (Svix's rule: a receiver gone for days
 * is told, not knocked on forever).
 */
async function disableIfFailingTooLong(tx: Tx, endpointId: string, days: number): Promise<boolean> {
  const [clock] = await tx.$queryRaw<{ since: Date; overdue: boolean }[]>`
    UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
     WHERE id = ${endpointId}::uuid
    RETURNING failing_since AS since, enabled AND failing_since <= now() - ${days} * interval '1 day' AS overdue`;
  if (!clock?.overdue) return false;
  return disableEndpoint(
    tx,
    endpointId,
    `Every delivery attempt failed for ${days} days (since ${utcMinute(clock.since)})`,
  );
}

async function failIfPending(tx: Tx, id: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET status = 'failed', completed_at = now(), next_attempt_at = NULL
     WHERE id = ${id}::uuid AND status = 'pending'`;
}
