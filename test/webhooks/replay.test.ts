// Bulk replay after an outage: every missed event once, with its original id, at the endpoint's rate.
import { Logger, run, type Runner } from 'graphile-worker';
import { http, HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';
import { afterEach } from 'vitest';
import { describe, expect } from '../support/harness.ts';
import { deliverWebhook } from '../../src/webhooks/deliver.ts';
import { disableWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { runReplay, startReplay } from '../../src/webhooks/replay.ts';
import { createReplayWebhooksTask } from '../../workers/replay-webhooks.ts';
import type { TestDb } from '../support/db.ts';
import { addAnalyzedCall, enqueueAnalyzed, seedDelivery, test } from './helpers.ts';

const RECEIVER = 'https://receiver.example/hooks';
const HOUR = 3_600_000;
let server: SetupServer;
let t: TestDb;
let runner: Runner;

test.beforeAll(async ({ db, mswServer, hooks }) => {
  t = db;
  server = mswServer;
  runner = await run({
    connectionString: t.url,
    concurrency: 1,
    taskList: { 'replay-webhooks': createReplayWebhooksTask(hooks) },
    noHandleSignals: true,
    pollInterval: 50,
    logger: new Logger(() => () => {}),
  });
});
afterEach(() => server.resetHandlers());
test.afterAll(async () => {
  await runner?.stop();
});

/** A receiver answering `status`, logging each webhook-id it gets and when. */
function receiver(status: number) {
  const got: { id: string; at: number }[] = [];
  server.use(
    http.post(RECEIVER, ({ request }) => {
      got.push({ id: request.headers.get('webhook-id')!, at: performance.now() });
      return new HttpResponse(null, { status });
    }),
  );
  return got;
}

async function replayDone(id: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [r] = await t.sql('SELECT * FROM webhook_replays WHERE id = $1', [id]);
    if (r.status !== 'running' || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ago = (deliveryId: string, ms: number) =>
  t.sql(`UPDATE webhook_deliveries SET created_at = now() - $2 * interval '1 millisecond' WHERE id = $1`, [
    deliveryId,
    ms,
  ]);

describe('replay since T', () => {
  test('after a day of 500s delivers every missed event once, with its original id', async ({ hooks: app }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const endpoint = (await getWebhookEndpoint(app, seeded.account.id))!;
    await updateWebhookEndpoint(app, seeded.account.id, endpoint.id, { ratePerSecond: 1000 });
    const deliveries = [seeded.deliveryId];
    for (let i = 0; i < 7; i++)
      deliveries.push((await enqueueAnalyzed(app, (await addAnalyzedCall(app, seeded)).id))[0]!.id);
    const [delivered, tooOld, ...outage] = deliveries;

    receiver(204);
    await deliverWebhook(app, delivered!);
    server.resetHandlers();
    receiver(500);
    await deliverWebhook(app, tooOld!, { scheduleMs: [] });
    // During the outage: most gave up, the latest are still waiting for a scheduled retry.
    for (const [i, id] of outage.entries()) await deliverWebhook(app, id, { scheduleMs: i < 4 ? [] : [HOUR] });
    await ago(tooOld!, 49 * HOUR);
    await ago(delivered!, 23 * HOUR);
    for (const [i, id] of outage.entries()) await ago(id, (22 - i * 3) * HOUR);

    server.resetHandlers();
    const got = receiver(200);
    const replay = await startReplay(app, seeded.account.id, endpoint.id, new Date(Date.now() - 25 * HOUR));
    expect(replay).toMatchObject({ status: 'running', total: outage.length });
    expect(await replayDone(replay.id)).toMatchObject({
      status: 'finished',
      total: 6,
      attempted: 6,
      succeeded: 6,
      failed: 0,
      finished_at: expect.any(Date),
    });

    const eventIds = await t.sql('SELECT id, event_id, status FROM webhook_deliveries WHERE id = ANY($1::uuid[])', [
      outage,
    ]);
    expect(got.map((g) => g.id).sort()).toEqual(eventIds.map((d) => d.event_id).sort());
    expect(eventIds.every((d) => d.status === 'succeeded')).toBe(true);
    // A second replay finds nothing left to send.
    const again = await startReplay(app, seeded.account.id, endpoint.id, new Date(Date.now() - 25 * HOUR));
    expect(again).toMatchObject({ status: 'finished', total: 0 });
  });

  test('works through more deliveries than one job run takes, resuming where it stopped', async ({ hooks: app }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const endpoint = (await getWebhookEndpoint(app, seeded.account.id))!;
    await updateWebhookEndpoint(app, seeded.account.id, endpoint.id, { ratePerSecond: 1000 });
    await t.sql(
      `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, call_id, event_id, event_type, payload, status, attempt_count, created_at, completed_at)
       SELECT gen_random_uuid(), account_id, endpoint_id, call_id, event_id || '_' || n, event_type, payload, 'failed', 7,
              now() - n * interval '1 minute', now()
         FROM webhook_deliveries, generate_series(1, 60) AS n WHERE id = $1`,
      [seeded.deliveryId],
    );
    const got = receiver(204);
    const replay = await startReplay(app, seeded.account.id, endpoint.id, new Date(Date.now() - 3 * HOUR));
    expect(replay.total).toBe(60);
    expect(await replayDone(replay.id)).toMatchObject({ status: 'finished', attempted: 60, succeeded: 60 });
    expect(got).toHaveLength(60);
    expect(new Set(got.map((g) => g.id)).size).toBe(60);
  });

  test('spaces its requests to the endpoint’s rate', async ({ hooks: app }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const endpoint = (await getWebhookEndpoint(app, seeded.account.id))!;
    await updateWebhookEndpoint(app, seeded.account.id, endpoint.id, { ratePerSecond: 5 });
    receiver(500);
    const ids = [seeded.deliveryId];
    for (let i = 0; i < 4; i++) ids.push((await enqueueAnalyzed(app, (await addAnalyzedCall(app, seeded)).id))[0]!.id);
    for (const id of ids) await deliverWebhook(app, id, { scheduleMs: [] });
    server.resetHandlers();
    const got = receiver(204);
    const replay = await startReplay(app, seeded.account.id, endpoint.id, new Date(Date.now() - HOUR));
    expect(await replayDone(replay.id)).toMatchObject({ status: 'finished', succeeded: 5 });
    expect(got).toHaveLength(5);
    const gaps = got.slice(1).map((g, i) => g.at - got[i]!.at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(190);
  });

  test('sends each delivery once even when two runs of the same replay overlap', async ({ hooks: app }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const endpoint = (await getWebhookEndpoint(app, seeded.account.id))!;
    await updateWebhookEndpoint(app, seeded.account.id, endpoint.id, { ratePerSecond: 50 });
    receiver(500);
    const ids = [seeded.deliveryId];
    for (let i = 0; i < 5; i++) ids.push((await enqueueAnalyzed(app, (await addAnalyzedCall(app, seeded)).id))[0]!.id);
    for (const id of ids) await deliverWebhook(app, id, { scheduleMs: [] });
    server.resetHandlers();
    const got = receiver(204);
    const replay = await startReplay(app, seeded.account.id, endpoint.id, new Date(Date.now() - HOUR));
    // The worker's run, and a second one here (as when a job presumed dead is still running).
    await runReplay(app, replay.id);
    expect(await replayDone(replay.id)).toMatchObject({ status: 'finished', attempted: 6 });
    expect(got.map((g) => g.id).sort()).toEqual([...new Set(got.map((g) => g.id))].sort());
    expect(got).toHaveLength(6);
  });

  test('refuses a disabled endpoint, a start in the future and another account’s endpoint, recording nothing', async ({
    hooks: app,
  }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const stranger = await seedDelivery(app, 'https://stranger.example/hooks');
    const endpoint = (await getWebhookEndpoint(app, seeded.account.id))!;
    const other = (await getWebhookEndpoint(app, stranger.account.id))!;
    const since = new Date(Date.now() - HOUR);
    await expect(startReplay(app, seeded.account.id, endpoint.id, new Date(Date.now() + HOUR))).rejects.toMatchObject({
      code: 'invalid_since',
    });
    await expect(startReplay(app, seeded.account.id, other.id, since)).rejects.toMatchObject({ code: 'not_found' });
    await disableWebhookEndpoint(app, seeded.account.id);
    await expect(startReplay(app, seeded.account.id, endpoint.id, since)).rejects.toMatchObject({
      code: 'webhook_disabled',
    });
    expect(
      await t.sql('SELECT 1 FROM webhook_replays WHERE endpoint_id = ANY($1::uuid[])', [[endpoint.id, other.id]]),
    ).toEqual([]);
  });
});
