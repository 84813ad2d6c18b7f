import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { notFound } from '../domain/errors.ts';
import type { WebhookReplay } from '../generated/prisma/client.ts';
import { attempt, type DeliveryOptions, record } from './deliver.ts';
import { invalidSince, webhookDisabled } from './errors.ts';
import { enqueue } from '../jobs/catalog.ts';

/** Deliveries one run of the job attempts before it hands the worker back and queues itself again. */
const BATCH = 50;

/**
 * The deliveries a replay covers: this endpoint's, made between `since` and the moment the replay
 * was asked for, that have not succeeded although an attempt was made: failed ones, and pending
 * ones still waiting for a scheduled retry (after a day-long outage most are still pending; the
 * scheduled retry of one the replay delivers finds it settled and does nothing).
 */
const missed = (endpointId: string, since: Date, until: Date) => ({
  endpointId,
  createdAt: { gte: since, lte: until },
  OR: [{ status: 'failed' as const }, { status: 'pending' as const, attemptCount: { gt: 0 } }],
});

/** The one place the replay-webhooks job is added; its key keeps one job per replay. */
export async function scheduleReplayJob(tx: Tx, replayId: string): Promise<void> {
  await enqueue(tx, 'replay-webhooks', { replayId });
}

/**
 * "Redeliver every failed delivery of this endpoint since T": records the replay with the number
 * of deliveries it covers and queues the job that works through them at the endpoint's rate.
 */
export async function startReplay(
  app: AppContext,
  accountId: string,
  endpointId: string,
  since: Date,
): Promise<WebhookReplay> {
  if (Number.isNaN(since.getTime())) throw invalidSince('The start of the replay is not a valid date and time.');
  if (since.getTime() > Date.now()) throw invalidSince('The start of the replay is in the future.');
  const endpoint = await app.db.webhookEndpoint.findFirst({ where: { id: endpointId, accountId } });
  if (!endpoint) throw notFound('Webhook endpoint');
  if (!endpoint.enabled) throw webhookDisabled(endpoint.disabledReason, 'replaying its deliveries');
  return app.db.$transaction(async (tx) => {
    const now = new Date();
    const total = await tx.webhookDelivery.count({ where: missed(endpointId, since, now) });
    const replay = await tx.webhookReplay.create({
      data: {
        accountId,
        endpointId,
        since,
        total,
        createdAt: now,
        ...(total === 0 && { status: 'finished', finishedAt: now }),
      },
    });
    if (total > 0) await scheduleReplayJob(tx, replay.id);
    return replay;
  });
}

/**
 * One run of the replay job: up to BATCH deliveries, each one attempt with its original
 * webhook-id (recorded as manual), spaced to the endpoint's rate. The resume point is saved
 * before each attempt and the counts after it, so a worker killed mid-way resumes after the last
 * delivery it started (one cut off mid-attempt stays failed, for the next replay). Returns true
 * when more remain (the job is queued again).
 */
export async function runReplay(app: AppContext, replayId: string, options: DeliveryOptions = {}): Promise<boolean> {
  const replay = await app.db.webhookReplay.findUnique({ where: { id: replayId } });
  if (replay?.status !== 'running') return false;
  const batch = await app.db.webhookDelivery.findMany({
    where: {
      ...missed(replay.endpointId, replay.since, replay.createdAt),
      ...(replay.cursorCreatedAt &&
        replay.cursorId && {
          AND: [
            {
              OR: [
                { createdAt: { gt: replay.cursorCreatedAt } },
                { createdAt: replay.cursorCreatedAt, id: { gt: replay.cursorId } },
              ],
            },
          ],
        }),
    },
    include: { endpoint: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: BATCH,
  });
  for (const delivery of batch) {
    // Read each time: a user may disable the endpoint, or change its rate, while the replay runs.
    const endpoint = await app.db.webhookEndpoint.findUnique({ where: { id: replay.endpointId } });
    if (!endpoint?.enabled) {
      await finish(app, replayId, 'stopped');
      return false;
    }
    // Claim the delivery by moving the resume point past it, only if no other run of this replay
    // has (a job presumed dead may still be running): each delivery is sent once per replay.
    const claimed = await app.db.$executeRaw`
      UPDATE webhook_replays SET cursor_created_at = ${delivery.createdAt}, cursor_id = ${delivery.id}::uuid
       WHERE id = ${replayId}::uuid AND status = 'running'
         AND (cursor_id IS NULL OR (cursor_created_at, cursor_id) < (${delivery.createdAt}, ${delivery.id}::uuid))`;
    if (claimed === 0) return false;
    const started = performance.now();
    const row = await record(app, { ...delivery, endpoint }, await attempt(app, { ...delivery, endpoint }, options), {
      manual: true,
      schedule: [],
    });
    const ok = row.statusCode !== null && row.statusCode >= 200 && row.statusCode < 300;
    await app.db.$executeRaw`
      UPDATE webhook_replays
         SET attempted = attempted + 1, succeeded = succeeded + ${ok ? 1 : 0}, failed = failed + ${ok ? 0 : 1}
       WHERE id = ${replayId}::uuid`;
    const spacing = 1000 / endpoint.ratePerSecond - (performance.now() - started);
    if (spacing > 0) await sleep(spacing);
  }
  if (batch.length < BATCH) {
    await finish(app, replayId, 'finished');
    return false;
  }
  await app.db.$transaction((tx) => scheduleReplayJob(tx, replayId));
  return true;
}

async function finish(app: AppContext, replayId: string, status: 'finished' | 'stopped') {
  await app.db.webhookReplay.updateMany({
    where: { id: replayId, status: 'running' },
    data: { status, finishedAt: new Date() },
  });
}
