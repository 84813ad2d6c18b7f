// An endpoint whose every attempt fails for WEBHOOK_DISABLE_AFTER_DAYS is disabled, with a reason,
// and the account's other endpoints that subscribe to webhook.disabled are told.
import { http, HttpResponse } from 'msw';
import { Webhook } from 'standardwebhooks';
import { deliverWebhook } from '../../src/webhooks/deliver.ts';
import { createWebhookEndpoint, enableWebhookEndpoint, getWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect } from '../support/harness.ts';
import { addAnalyzedCall, delivery, enqueueAnalyzed, seedDelivery, test } from './helpers.ts';

const DOWN = 'https://down.example/hooks';

const failingSince = async (t: TestDb, endpointId: string) =>
  (await t.sql('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [endpointId]))[0]
    .failing_since as Date | null;
const backdate = (t: TestDb, endpointId: string, days: number) =>
  t.sql(`UPDATE webhook_endpoints SET failing_since = now() - $2 * interval '1 day' WHERE id = $1`, [endpointId, days]);

describe('disabling an endpoint that keeps failing', () => {
  test('starts the failure clock on the first failure and stops it on a success', async ({
    db: t,
    msw: server,
    hooks: app,
  }) => {
    const seeded = await seedDelivery(app, DOWN);
    const endpoint = (await getWebhookEndpoint(app, seeded.account.id))!;
    server.use(http.post(DOWN, () => new HttpResponse('down', { status: 500 })));
    await deliverWebhook(app, seeded.deliveryId);
    const started = await failingSince(t, endpoint.id);
    expect(started).toBeInstanceOf(Date);
    await deliverWebhook(app, seeded.deliveryId);
    expect(await failingSince(t, endpoint.id)).toEqual(started);

    server.use(http.post(DOWN, () => new HttpResponse(null, { status: 204 })));
    await deliverWebhook(app, seeded.deliveryId);
    expect(await failingSince(t, endpoint.id)).toBeNull();
  });

  test('after 5 days of failures disables it with a reason and sends webhook.disabled to subscribed siblings only', async ({
    db: t,
    msw: server,
    hooks: app,
  }) => {
    const seeded = await seedDelivery(app, DOWN);
    const down = (await getWebhookEndpoint(app, seeded.account.id))!;
    const watcher = await createWebhookEndpoint(app, seeded.account.id, {
      url: 'https://ops.example/alerts',
      eventTypes: ['webhook.disabled'],
      // A campaign filter is about calls: it does not hide webhook.disabled.
      campaignId: seeded.campaign.id,
    });
    const quiet = await createWebhookEndpoint(app, seeded.account.id, { url: 'https://bi.example/hooks' });
    const alerts: unknown[] = [];
    server.use(
      http.post(DOWN, () => new HttpResponse('down', { status: 500 })),
      http.post('https://ops.example/alerts', async ({ request }) => {
        alerts.push(new Webhook(watcher.secret).verify(await request.text(), Object.fromEntries(request.headers)));
        return new HttpResponse(null, { status: 204 });
      }),
      http.post('https://bi.example/hooks', () => new HttpResponse(null, { status: 204 })),
    );

    // Four days and a half of failures: still enabled, the next attempt is scheduled.
    await deliverWebhook(app, seeded.deliveryId);
    await backdate(t, down.id, 4.5);
    await deliverWebhook(app, seeded.deliveryId);
    expect((await getWebhookEndpoint(app, seeded.account.id, down.id))!.enabled).toBe(true);
    expect((await delivery(t, seeded.deliveryId)).status).toBe('pending');

    // Past five days: the next failure disables it.
    await backdate(t, down.id, 5.01);
    await deliverWebhook(app, seeded.deliveryId);
    const disabled = (await getWebhookEndpoint(app, seeded.account.id, down.id))!;
    expect(disabled).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(
        /^Every delivery attempt failed for 5 days \(since \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/,
      ),
      disabledAt: expect.any(Date),
    });
    expect(await delivery(t, seeded.deliveryId)).toMatchObject({ status: 'failed', next_attempt_at: null });

    const notices = await t.sql(
      "SELECT endpoint_id, status FROM webhook_deliveries WHERE event_type = 'webhook.disabled'",
    );
    expect(notices).toEqual([{ endpoint_id: watcher.endpoint.id, status: 'pending' }]);
    const [notice] = await app.db.webhookDelivery.findMany({ where: { eventType: 'webhook.disabled' } });
    await deliverWebhook(app, notice!.id);
    expect(alerts).toEqual([
      {
        type: 'webhook.disabled',
        timestamp: expect.any(String),
        data: {
          endpoint_id: down.id,
          url: DOWN,
          reason: disabled.disabledReason,
          disabled_at: disabled.disabledAt!.toISOString(),
          failing_since: expect.any(String),
        },
      },
    ]);
    expect(quiet.endpoint.id).not.toBe(watcher.endpoint.id);

    // New calls no longer go to the disabled endpoint; enabling it restarts the clock.
    expect((await enqueueAnalyzed(app, (await addAnalyzedCall(app, seeded)).id)).map((d) => d.endpointId)).toEqual([
      quiet.endpoint.id,
    ]);
    await enableWebhookEndpoint(app, seeded.account.id, down.id);
    expect(await failingSince(t, down.id)).toBeNull();
  });
});
