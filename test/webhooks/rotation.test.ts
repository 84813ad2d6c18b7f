// Secret rotation with overlap, tried as an integrator would: the receiver keeps its old secret
// for a while after the rotation, then switches; no delivery may be rejected on the way.
import type { SetupServer } from 'msw/node';
import { deliverWebhook } from '../../src/webhooks/deliver.ts';
import { getWebhookEndpoint, rotateWebhookSecret } from '../../src/webhooks/endpoints.ts';
import { describe, expect } from '../support/harness.ts';
import { addAnalyzedCall, delivery, enqueueAnalyzed, seedDelivery, test, verifyingReceiver } from './helpers.ts';

const RECEIVER = 'https://receiver.example/escucha';

const receiverWith = (server: SetupServer, config: { secret: string }) => verifyingReceiver(server, RECEIVER, config);

describe('secret rotation', () => {
  test('loses no delivery of a burst at a receiver that switches its secret an hour after the rotation', async ({
    msw: server,
    hooks: app,
  }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const receiver = { secret: seeded.secret };
    const log = receiverWith(server, receiver);
    const pending = [seeded.deliveryId];
    const burst = async (n: number) => {
      for (let i = 0; i < n; i++)
        pending.push((await enqueueAnalyzed(app, (await addAnalyzedCall(app, seeded)).id))[0]!.id);
    };

    await burst(4);
    await deliverWebhook(app, pending.shift()!);
    await deliverWebhook(app, pending.shift()!);
    const before = Date.now();
    const { secret: newSecret, endpoint } = await rotateWebhookSecret(app, seeded.account.id);
    // The overlap lasts WEBHOOK_SECRET_OVERLAP_HOURS (24 by default), which the app shows.
    const until = endpoint.previousSecretExpiresAt!.getTime() - before;
    expect(until).toBeGreaterThan(24 * 3_600_000 - 5_000);
    expect(until).toBeLessThanOrEqual(24 * 3_600_000 + 5_000);

    // Deliveries queued before and after the rotation, while the receiver still has the old secret.
    await burst(4);
    while (pending.length > 3) await deliverWebhook(app, pending.shift()!);
    // An hour later the receiver switches to the new secret.
    receiver.secret = newSecret;
    await burst(2);
    while (pending.length) await deliverWebhook(app, pending.shift()!);

    expect(log).toHaveLength(11);
    expect(log.filter((r) => !r.accepted)).toEqual([]);
    expect(log.slice(0, 2).map((r) => r.signatures)).toEqual([1, 1]);
    expect(log.slice(2).every((r) => r.signatures === 2)).toBe(true);
  });

  test('signs with the new secret only once the overlap is over', async ({ db: t, msw: server, hooks: app }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const { secret: newSecret } = await rotateWebhookSecret(app, seeded.account.id);
    // The overlap ends (time passes).
    await t.sql(
      "UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE account_id = $1",
      [seeded.account.id],
    );
    expect((await getWebhookEndpoint(app, seeded.account.id))!.previousSecretExpiresAt!.getTime()).toBeLessThan(
      Date.now(),
    );
    const old = receiverWith(server, { secret: seeded.secret });
    await deliverWebhook(app, seeded.deliveryId, { scheduleMs: [] });
    expect(old).toEqual([{ id: expect.any(String), accepted: false, signatures: 1 }]);
    expect((await delivery(t, seeded.deliveryId)).status).toBe('failed');

    server.resetHandlers();
    const current = receiverWith(server, { secret: newSecret });
    const [next] = await enqueueAnalyzed(app, (await addAnalyzedCall(app, seeded)).id);
    await deliverWebhook(app, next!.id);
    expect(current).toEqual([{ id: next!.eventId, accepted: true, signatures: 1 }]);
  });

  test('a second rotation within the overlap keeps only the secret it replaces', async ({
    msw: server,
    hooks: app,
  }) => {
    const seeded = await seedDelivery(app, RECEIVER);
    const first = await rotateWebhookSecret(app, seeded.account.id);
    const second = await rotateWebhookSecret(app, seeded.account.id);
    const log = receiverWith(server, { secret: first.secret });
    await deliverWebhook(app, seeded.deliveryId);
    expect(log).toEqual([{ id: expect.any(String), accepted: true, signatures: 2 }]);
    server.resetHandlers();
    const original = receiverWith(server, { secret: seeded.secret });
    const [next] = await enqueueAnalyzed(app, (await addAnalyzedCall(app, seeded)).id);
    await deliverWebhook(app, next!.id, { scheduleMs: [] });
    expect(original[0]!.accepted).toBe(false);
    expect(second.secret).not.toBe(first.secret);
  });
});
