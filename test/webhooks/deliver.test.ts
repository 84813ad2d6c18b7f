import { Webhook } from 'standardwebhooks';
import { deliverWebhook, redeliver } from '../../src/webhooks/deliver.ts';
import { disableWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { describe, expect, test } from '../support/harness.ts';
import { attempts, delivery, deliveryJobs, makeApp, seedDelivery } from './helpers.ts';

describe('deliverWebhook', () => {
  test('signs the request the Standard Webhooks way', async ({ db: t, receiver }) => {
    const app = makeApp(t);
    const r = await receiver([200]);
    const { deliveryId, secret, call } = await seedDelivery(app, r.url);
    await deliverWebhook(app, deliveryId);

    const [req] = r.received;
    expect(req!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Escucha-Webhooks/1',
      'webhook-id': (await delivery(t, deliveryId)).event_id,
    });
    const verified = new Webhook(secret).verify(req!.body, req!.headers as Record<string, string>) as {
      type: string;
      data: { id: string };
    };
    expect(verified).toMatchObject({ type: 'call.analyzed', data: { id: call.id } });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(
        req!.body,
        req!.headers as Record<string, string>,
      ),
    ).toThrow();
    expect(await delivery(t, deliveryId)).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
    });
  });

  test('records a failed attempt and schedules the next one 5 s (±10%) later with the same job key', async ({
    db: t,
    receiver,
  }) => {
    const app = makeApp(t);
    const r = await receiver([500]);
    const { deliveryId } = await seedDelivery(app, r.url);
    const before = Date.now();
    await deliverWebhook(app, deliveryId);

    expect(await attempts(t, deliveryId)).toEqual([
      {
        attempt_number: 1,
        status_code: 500,
        duration_ms: expect.any(Number),
        error: 'HTTP 500',
        response_excerpt: 'reply 1',
        manual: false,
      },
    ]);
    const d = await delivery(t, deliveryId);
    expect(d.status).toBe('pending');
    const wait = d.next_attempt_at.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(4_400);
    expect(wait).toBeLessThanOrEqual(5_600);
    const jobs = await deliveryJobs(t, deliveryId);
    expect(jobs).toHaveLength(1);
    // next_attempt_at is kept to the millisecond, run_at to the microsecond.
    expect(Math.abs(jobs[0]!.run_at.getTime() - d.next_attempt_at.getTime())).toBeLessThanOrEqual(1);
  });

  test('gives up after the last scheduled retry and then leaves the delivery alone', async ({ db: t, receiver }) => {
    const app = makeApp(t);
    const r = await receiver([503]);
    const { deliveryId } = await seedDelivery(app, r.url);
    for (let i = 0; i < 3; i++) await deliverWebhook(app, deliveryId, { scheduleMs: [10] });
    expect(r.received).toHaveLength(2);
    expect(await delivery(t, deliveryId)).toMatchObject({ status: 'failed', attempt_count: 2, next_attempt_at: null });
  });

  test('does nothing for a delivery that already succeeded', async ({ db: t, receiver }) => {
    const app = makeApp(t);
    const r = await receiver([204]);
    const { deliveryId } = await seedDelivery(app, r.url);
    await deliverWebhook(app, deliveryId);
    await deliverWebhook(app, deliveryId);
    expect(r.received).toHaveLength(1);
  });

  test('times out a receiver that never answers', async ({ db: t, receiver }) => {
    const app = makeApp(t);
    const r = await receiver(['hang']);
    const { deliveryId } = await seedDelivery(app, r.url);
    await deliverWebhook(app, deliveryId, { timeoutMs: 300 });
    const [a] = await attempts(t, deliveryId);
    expect(a).toMatchObject({ status_code: null, error: expect.stringMatching(/^Timed out/) });
    expect(a.duration_ms).toBeGreaterThanOrEqual(280);
    expect(a.duration_ms).toBeLessThan(5_000);
    expect((await delivery(t, deliveryId)).status).toBe('pending');
  });

  test('keeps only the first 2 KB of a reply', async ({ db: t, receiver }) => {
    const app = makeApp(t);
    const r = await receiver([{ status: 400, body: 'é'.repeat(5_000) }]);
    const { deliveryId } = await seedDelivery(app, r.url);
    await deliverWebhook(app, deliveryId);
    const [a] = await attempts(t, deliveryId);
    expect(Buffer.byteLength(a.response_excerpt)).toBeLessThanOrEqual(2_048);
    expect(a.response_excerpt.startsWith('éé')).toBe(true);
  });

  test('refuses a private address at connection time unless allowed, sending nothing', async ({ db: t, receiver }) => {
    const r = await receiver([200]);
    const { deliveryId, account } = await seedDelivery(makeApp(t), r.url);
    const strict = makeApp(t, { allowPrivate: false });
    await deliverWebhook(strict, deliveryId);
    // A name that resolves to loopback (the DNS-rebinding case) is caught by the lookup guard.
    await t.sql('UPDATE webhook_endpoints SET url = $1 WHERE account_id = $2', [
      `http://localhost:${r.port}/hooks`,
      account.id,
    ]);
    await deliverWebhook(strict, deliveryId);

    expect(r.received).toHaveLength(0);
    const rows = await attempts(t, deliveryId);
    expect(rows.map((a) => a.error)).toEqual([
      expect.stringMatching(/^private_address: Webhook host "127\.0\.0\.1" is a private/),
      expect.stringMatching(/^private_address: Webhook host "localhost" resolves to (127\.0\.0\.1|::1)/),
    ]);
  });

  test('drops a pending delivery once its endpoint is disabled', async ({ db: t, receiver }) => {
    const app = makeApp(t);
    const r = await receiver([200]);
    const { deliveryId, account } = await seedDelivery(app, r.url);
    await disableWebhookEndpoint(app, account.id);
    await deliverWebhook(app, deliveryId);
    expect(r.received).toHaveLength(0);
    expect(await delivery(t, deliveryId)).toMatchObject({ status: 'failed', attempt_count: 0 });
  });
});

describe('redeliver', () => {
  test('makes a manual attempt with the same webhook-id, and can complete a failed delivery', async ({
    db: t,
    receiver,
  }) => {
    const app = makeApp(t);
    const r = await receiver([500, 500, 200]);
    const { deliveryId, account } = await seedDelivery(app, r.url);
    await deliverWebhook(app, deliveryId, { scheduleMs: [] });
    expect((await delivery(t, deliveryId)).status).toBe('failed');

    const failedAgain = await redeliver(app, account.id, deliveryId);
    expect(failedAgain).toMatchObject({ attemptNumber: 2, statusCode: 500, manual: true });
    expect((await delivery(t, deliveryId)).status).toBe('failed');

    expect(await redeliver(app, account.id, deliveryId)).toMatchObject({
      attemptNumber: 3,
      statusCode: 200,
      manual: true,
    });
    expect(await delivery(t, deliveryId)).toMatchObject({ status: 'succeeded', attempt_count: 3 });
    expect(new Set(r.received.map((q) => q.headers['webhook-id'])).size).toBe(1);
  });

  test('refuses another account and a disabled endpoint', async ({ db: t, receiver }) => {
    const app = makeApp(t);
    const r = await receiver([200]);
    const { deliveryId, account } = await seedDelivery(app, r.url);
    const other = await app.db.account.create({ data: { name: 'Other' } });
    await expect(redeliver(app, other.id, deliveryId)).rejects.toMatchObject({ code: 'not_found' });
    await disableWebhookEndpoint(app, account.id);
    await expect(redeliver(app, account.id, deliveryId)).rejects.toMatchObject({ code: 'webhook_disabled' });
    expect(r.received).toHaveLength(0);
  });
});
