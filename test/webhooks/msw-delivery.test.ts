// The sender against receivers mocked with msw (setupServer intercepts got, the sender's HTTP
// client): the failure modes a real receiver shows, without opening a port. The end-to-end tests
// (worker.test.ts, test/pipeline) keep a real loopback receiver.
import { delay, http, HttpResponse } from 'msw';
import { Webhook } from 'standardwebhooks';
import { deliverWebhook, nextDelayMs } from '../../src/webhooks/deliver.ts';
import { getWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect } from '../support/harness.ts';
import { attempts, delivery, deliveryJobs, seedDelivery, test } from './helpers.ts';

const RECEIVER = 'https://receiver.example/hooks';

/** Seconds between now and the delivery's next scheduled attempt. */
async function waitSeconds(t: TestDb, deliveryId: string, before: number) {
  const d = await delivery(t, deliveryId);
  return (d.next_attempt_at.getTime() - before) / 1000;
}

describe('delivery to receivers mocked with msw', () => {
  test('reaches the receiver with a body it can verify with the endpoint secret', async ({
    db: t,
    msw: server,
    hooks: app,
  }) => {
    const seen: { id: string | null; verified: unknown }[] = [];
    const { deliveryId, secret, call } = await seedDelivery(app, RECEIVER);
    server.use(
      http.post(RECEIVER, async ({ request }) => {
        const body = await request.text();
        const verified = new Webhook(secret).verify(body, Object.fromEntries(request.headers));
        seen.push({ id: request.headers.get('webhook-id'), verified });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await deliverWebhook(app, deliveryId);
    expect(seen).toEqual([
      {
        id: (await delivery(t, deliveryId)).event_id,
        verified: expect.objectContaining({ type: 'call.analyzed', data: expect.objectContaining({ id: call.id }) }),
      },
    ]);
    expect((await delivery(t, deliveryId)).status).toBe('succeeded');
  });

  test('times out a receiver that never answers and keeps the delivery for the next attempt', async ({
    db: t,
    msw: server,
    hooks: app,
  }) => {
    const { deliveryId } = await seedDelivery(app, RECEIVER);
    server.use(
      http.post(RECEIVER, async () => {
        await delay('infinite');
        return new HttpResponse(null, { status: 200 });
      }),
    );
    await deliverWebhook(app, deliveryId, { timeoutMs: 200 });
    const [a] = await attempts(t, deliveryId);
    expect(a).toMatchObject({ status_code: null, error: expect.stringMatching(/^Timed out/) });
    expect((await delivery(t, deliveryId)).status).toBe('pending');
    expect(await deliveryJobs(t, deliveryId)).toHaveLength(1);
  });

  test('records a connection reset as a network failure and retries', async ({ db: t, msw: server, hooks: app }) => {
    const { deliveryId } = await seedDelivery(app, RECEIVER);
    server.use(http.post(RECEIVER, () => HttpResponse.error()));
    await deliverWebhook(app, deliveryId);
    const [a] = await attempts(t, deliveryId);
    expect(a.status_code).toBeNull();
    expect(a.error).toMatch(/\S/);
    expect((await delivery(t, deliveryId)).status).toBe('pending');
  });

  test('disables the endpoint on 410 Gone', async ({ db: t, msw: server, hooks: app }) => {
    const { deliveryId, account } = await seedDelivery(app, RECEIVER);
    server.use(http.post(RECEIVER, () => new HttpResponse('gone', { status: 410 })));
    await deliverWebhook(app, deliveryId);
    expect(await delivery(t, deliveryId)).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(await getWebhookEndpoint(app, account.id)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/410 Gone/),
      disabledAt: expect.any(Date),
    });
  });

  test('waits as long as a 429 asks with Retry-After, and keeps the headers in the attempt log', async ({
    db: t,
    msw: server,
    hooks: app,
  }) => {
    const { deliveryId } = await seedDelivery(app, RECEIVER);
    server.use(
      http.post(RECEIVER, () =>
        HttpResponse.json({ error: 'slow down' }, { status: 429, headers: { 'Retry-After': '120' } }),
      ),
    );
    const before = Date.now();
    await deliverWebhook(app, deliveryId);
    // The schedule alone would say 5 s.
    const wait = await waitSeconds(t, deliveryId, before);
    expect(wait).toBeGreaterThanOrEqual(119);
    expect(wait).toBeLessThan(125);
    const [row] = await t.sql('SELECT response_headers FROM webhook_attempts WHERE delivery_id = $1', [deliveryId]);
    expect(row.response_headers).toEqual({ 'retry-after': '120', 'content-type': 'application/json' });
    const [job] = await deliveryJobs(t, deliveryId);
    expect((job!.run_at.getTime() - before) / 1000).toBeGreaterThanOrEqual(119);
  });

  test('reads Retry-After as an HTTP date on 503, and caps it at the scheduled wait + 1 h', async ({
    db: t,
    msw: server,
    hooks: app,
  }) => {
    const { deliveryId } = await seedDelivery(app, RECEIVER);
    const inTenMinutes = new Date(Date.now() + 600_000).toUTCString();
    server.use(
      http.post(
        RECEIVER,
        () => new HttpResponse('maintenance', { status: 503, headers: { 'Retry-After': inTenMinutes } }),
      ),
    );
    const before = Date.now();
    await deliverWebhook(app, deliveryId);
    expect(await waitSeconds(t, deliveryId, before)).toBeGreaterThan(590);
    expect(await waitSeconds(t, deliveryId, before)).toBeLessThan(605);

    const { deliveryId: second } = await seedDelivery(app, RECEIVER);
    server.use(
      http.post(RECEIVER, () => new HttpResponse('busy', { status: 503, headers: { 'Retry-After': '864000' } })),
    );
    const before2 = Date.now();
    await deliverWebhook(app, second);
    const capped = await waitSeconds(t, second, before2);
    expect(capped).toBeGreaterThan(3_600);
    expect(capped).toBeLessThan(3_606);
  });

  test('ignores Retry-After on statuses that do not mean "busy" (500)', () => {
    const outcome = { statusCode: 500, responseHeaders: { 'retry-after': '120' } };
    expect(nextDelayMs(5_000, outcome)).toBeLessThanOrEqual(5_500);
    expect(nextDelayMs(5_000, { ...outcome, statusCode: 502 })).toBe(120_000);
    expect(nextDelayMs(5_000, { ...outcome, statusCode: 504 })).toBe(120_000);
    // A shorter Retry-After never makes the schedule faster.
    expect(nextDelayMs(300_000, { statusCode: 429, responseHeaders: { 'retry-after': '1' } })).toBeGreaterThan(260_000);
  });

  test('decides on the status of a reply whose body trickles in, keeping what came', async ({
    db: t,
    msw: server,
    hooks: app,
  }) => {
    const { deliveryId } = await seedDelivery(app, RECEIVER);
    server.use(
      http.post(RECEIVER, () => {
        const stream = new ReadableStream({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode('accepted, '));
            await delay('infinite');
          },
        });
        return new HttpResponse(stream, { status: 200, headers: { 'content-type': 'text/plain' } });
      }),
    );
    await deliverWebhook(app, deliveryId, { timeoutMs: 300 });
    const [a] = await attempts(t, deliveryId);
    expect(a).toMatchObject({ status_code: 200, error: null, response_excerpt: 'accepted, ' });
    expect(a.duration_ms).toBeLessThan(5_000);
    expect((await delivery(t, deliveryId)).status).toBe('succeeded');
  });
});
