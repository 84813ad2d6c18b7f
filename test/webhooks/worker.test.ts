// The delivery task run by a real graphile-worker, with a retry schedule of milliseconds.
import { describe, expect } from '../support/harness.ts';
import { Logger, run, type Runner } from 'graphile-worker';
import { Webhook } from 'standardwebhooks';
import { DELIVER_WEBHOOK_TASK, sendTestEvent } from '../../src/webhooks/enqueue.ts';
import { getWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { createDeliverWebhookTask } from '../../workers/deliver-webhook.ts';
import type { TestDb } from '../support/db.ts';
import { attempts, delivery, deliveryJobs, seedDelivery, test } from './helpers.ts';

let t: TestDb;
let runner: Runner;

test.beforeAll(async ({ db, hooks }) => {
  t = db;
  runner = await run({
    connectionString: t.url,
    concurrency: 2,
    taskList: { [DELIVER_WEBHOOK_TASK]: createDeliverWebhookTask(hooks, { scheduleMs: [50, 50, 50] }) },
    noHandleSignals: true,
    pollInterval: 50,
    logger: new Logger(() => () => {}),
  });
});
test.afterAll(async () => {
  await runner.stop();
});

async function settled(deliveryId: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const d = await delivery(t, deliveryId);
    if (d.status !== 'pending' || Date.now() > deadline) return d;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The delivery's job is gone once graphile-worker has completed it. The task settles the delivery before
 * it returns and the worker deletes the job after, so the row may outlive the delivery's status by a
 * moment on a loaded machine: awaited, not read once.
 */
async function noJobLeft(deliveryId: string) {
  await expect.poll(async () => (await deliveryJobs(t, deliveryId)).length, { timeout: 10_000, interval: 50 }).toBe(0);
}

describe('deliver-webhook task under graphile-worker', () => {
  test('retries 500, 500 and succeeds on 200 with the same webhook-id and valid signatures', async ({
    hooks: app,
    receiver,
  }) => {
    const r = await receiver([500, 500, 200]);
    const { deliveryId, secret } = await seedDelivery(app, r.url);

    expect(await settled(deliveryId)).toMatchObject({ status: 'succeeded', attempt_count: 3, next_attempt_at: null });
    expect((await attempts(t, deliveryId)).map((a) => [a.attempt_number, a.status_code, a.manual])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, false],
    ]);
    expect(r.received).toHaveLength(3);
    const ids = new Set(r.received.map((q) => q.headers['webhook-id']));
    expect(ids).toEqual(new Set([(await delivery(t, deliveryId)).event_id]));
    for (const q of r.received)
      expect(() => new Webhook(secret).verify(q.body, q.headers as Record<string, string>)).not.toThrow();
    await noJobLeft(deliveryId);
  });

  test('disables the endpoint on 410 and schedules nothing more', async ({ hooks: app, receiver }) => {
    const r = await receiver([410, 200]);
    const { deliveryId, account } = await seedDelivery(app, r.url);

    expect(await settled(deliveryId)).toMatchObject({ status: 'failed', attempt_count: 1 });
    expect(await getWebhookEndpoint(app, account.id)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/410 Gone/),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
    await noJobLeft(deliveryId);
  });

  test('delivers a webhook.test event once, without retries', async ({ hooks: app, receiver }) => {
    const r = await receiver([500]);
    const { account, secret } = await seedDelivery(app, r.url);
    const test = await sendTestEvent(app, account.id);

    expect(await settled(test.id)).toMatchObject({ status: 'failed', attempt_count: 1 });
    const q = r.received.find((x) => x.headers['webhook-id'] === test.eventId)!;
    expect(new Webhook(secret).verify(q.body, q.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
      data: { account_id: account.id },
    });
  });
});
