// Several endpoints per account: subscriptions, campaign filters, the limit, and the same event id everywhere.
import { http, HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';
import { Webhook } from 'standardwebhooks';
import { afterEach } from 'vitest';
import { describe, expect } from '../support/harness.ts';
import { deliverWebhook } from '../../src/webhooks/deliver.ts';
import {
  createWebhookEndpoint,
  listWebhookEndpoints,
  setWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../src/webhooks/endpoints.ts';
import { enqueueCallFailed } from '../../src/webhooks/enqueue.ts';
import type { TestDb } from '../support/db.ts';
import { addAnalyzedCall, enqueueAnalyzed, type makeApp, seedAnalyzedCall, test } from './helpers.ts';

let server: SetupServer;
let t: TestDb;
test.beforeAll(({ db, mswServer }) => {
  t = db;
  server = mswServer;
});
afterEach(() => server.resetHandlers());

/** Receivers by URL, each verifying with its own secret; returns what each accepted. */
function receivers(secrets: Record<string, string>) {
  const got: Record<string, { id: string; type: string; callId: string }[]> = {};
  for (const [url, secret] of Object.entries(secrets)) {
    got[url] = [];
    server.use(
      http.post(url, async ({ request }) => {
        const event = new Webhook(secret).verify(await request.text(), Object.fromEntries(request.headers)) as any;
        got[url]!.push({ id: request.headers.get('webhook-id')!, type: event.type, callId: event.data.id });
        return new HttpResponse(null, { status: 204 });
      }),
    );
  }
  return got;
}

async function deliverAll(app: ReturnType<typeof makeApp>) {
  const pending = await app.db.webhookDelivery.findMany({
    where: { status: 'pending' },
    orderBy: { createdAt: 'asc' },
  });
  for (const d of pending) await deliverWebhook(app, d.id);
}

describe('several endpoints per account', () => {
  test('sends a second endpoint subscribed to one campaign only that campaign’s calls, under the same event ids', async ({
    hooks: app,
  }) => {
    const seeded = await seedAnalyzedCall(app);
    const other = await app.db.campaign.create({
      data: { accountId: seeded.account.id, name: 'Support', nameNormalized: 'support' },
    });
    const main = await setWebhookEndpoint(app, seeded.account.id, 'https://prod.example/hooks');
    const crm = await createWebhookEndpoint(app, seeded.account.id, {
      url: 'https://crm.example/hooks',
      description: 'CRM, renewals only',
      campaignId: seeded.campaign.id,
    });
    const got = receivers({ 'https://prod.example/hooks': main.secret!, 'https://crm.example/hooks': crm.secret });

    const inCampaign = [seeded.call, await addAnalyzedCall(app, seeded)];
    const outside = [
      await addAnalyzedCall(app, seeded, { campaignId: other.id }),
      await addAnalyzedCall(app, seeded, { campaignId: null }),
    ];
    for (const c of [...inCampaign, ...outside]) await enqueueAnalyzed(app, c.id);
    await deliverAll(app);

    expect(got['https://prod.example/hooks']!.map((r) => r.callId).sort()).toEqual(
      [...inCampaign, ...outside].map((c) => c.id).sort(),
    );
    expect(got['https://crm.example/hooks']!.map((r) => r.callId).sort()).toEqual(inCampaign.map((c) => c.id).sort());
    // One event, one webhook-id, whichever endpoint receives it.
    for (const r of got['https://crm.example/hooks']!)
      expect(got['https://prod.example/hooks']!.find((p) => p.callId === r.callId)!.id).toBe(r.id);
  });

  test('sends opt-in event types only to endpoints that subscribed to them', async ({ hooks: app }) => {
    const seeded = await seedAnalyzedCall(app);
    const main = await setWebhookEndpoint(app, seeded.account.id, 'https://a.example/hooks');
    const ops = await createWebhookEndpoint(app, seeded.account.id, {
      url: 'https://ops.example/hooks',
      eventTypes: ['call.failed'],
    });
    const got = receivers({ 'https://a.example/hooks': main.secret!, 'https://ops.example/hooks': ops.secret });
    const failed = await app.db.call.update({
      where: { id: (await addAnalyzedCall(app, seeded)).id },
      data: { status: 'failed', failureReason: 'no_speech', failureDetail: 'Only silence' },
    });
    await enqueueAnalyzed(app, seeded.call.id);
    await app.db.$transaction((tx) => enqueueCallFailed(tx, failed.id, app.config.publicUrl));
    await deliverAll(app);

    expect(got['https://a.example/hooks']).toEqual([
      { id: expect.any(String), type: 'call.analyzed', callId: seeded.call.id },
    ]);
    expect(got['https://ops.example/hooks']).toEqual([
      { id: expect.any(String), type: 'call.failed', callId: failed.id },
    ]);
    const [payload] = await t.sql(
      "SELECT payload FROM webhook_deliveries WHERE event_type = 'call.failed' AND call_id = $1",
      [failed.id],
    );
    expect(payload.payload.data).toMatchObject({
      status: 'failed',
      failure_reason: 'no_speech',
      failure_detail: 'Only silence',
    });

    // Subscribing later changes what the endpoint receives from then on.
    await updateWebhookEndpoint(app, seeded.account.id, ops.endpoint.id, {
      eventTypes: ['call.failed', 'call.analyzed'],
    });
    const next = await addAnalyzedCall(app, seeded);
    expect((await enqueueAnalyzed(app, next.id)).map((d) => d.endpointId).sort()).toEqual(
      [main.endpoint.id, ops.endpoint.id].sort(),
    );
  });

  test('allows 10 endpoints per account and refuses the 11th, creating nothing', async ({ hooks: app }) => {
    const { account } = await seedAnalyzedCall(app);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => createWebhookEndpoint(app, account.id, { url: `https://e${i}.example/h` })),
    );
    await expect(createWebhookEndpoint(app, account.id, { url: 'https://e10.example/h' })).rejects.toMatchObject({
      code: 'webhook_endpoint_limit',
    });
    expect(await listWebhookEndpoints(app, account.id)).toHaveLength(10);
  });

  test('refuses unknown event types, an empty subscription, a bad rate and another account’s campaign', async ({
    hooks: app,
  }) => {
    const { account } = await seedAnalyzedCall(app);
    const stranger = await seedAnalyzedCall(app);
    const url = 'https://x.example/h';
    await expect(createWebhookEndpoint(app, account.id, { url, eventTypes: ['call.deleted'] })).rejects.toMatchObject({
      code: 'invalid_event_types',
    });
    await expect(createWebhookEndpoint(app, account.id, { url, eventTypes: [] })).rejects.toMatchObject({
      code: 'invalid_event_types',
    });
    await expect(createWebhookEndpoint(app, account.id, { url, ratePerSecond: 0 })).rejects.toMatchObject({
      code: 'invalid_rate',
    });
    await expect(
      createWebhookEndpoint(app, account.id, { url, campaignId: stranger.campaign.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await listWebhookEndpoints(app, account.id)).toEqual([]);
  });
});
