import { describe, expect } from '../support/harness.ts';
import { callAnalyzedEventId, enqueueCallAnalyzed } from '../../src/webhooks/enqueue.ts';
import { disableWebhookEndpoint, setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import type { TestDb } from '../support/db.ts';
import { deliveryJobs, seedAnalyzedCall, test } from './helpers.ts';

let t: TestDb;
test.beforeAll(({ db }) => {
  t = db;
});

describe('enqueueCallAnalyzed', () => {
  test('is idempotent per analysis revision: one delivery, one job, a stable event id', async ({ hooks: app }) => {
    const { account, call } = await seedAnalyzedCall(app);
    await setWebhookEndpoint(app, account.id, 'http://127.0.0.1:9/hooks');
    const enqueue = () => app.db.$transaction((tx) => enqueueCallAnalyzed(tx, call.id, 1, app.config.publicUrl));

    const first = await enqueue();
    expect(first).not.toBeNull();
    expect(await enqueue()).toBeNull();

    const rows = await t.sql('SELECT id, event_id, event_type, status FROM webhook_deliveries WHERE call_id = $1', [
      call.id,
    ]);
    expect(rows).toEqual([
      { id: first, event_id: callAnalyzedEventId(call.id, 1), event_type: 'call.analyzed', status: 'pending' },
    ]);
    expect(rows[0].event_id).toMatch(/^msg_[0-9a-f]{32}$/);
    const jobs = await deliveryJobs(t, first!);
    expect(jobs).toHaveLength(1);
    // graphile-worker retries only crashes (HTTP failures follow our schedule), so more than one attempt.
    expect(jobs[0]!.max_attempts).toBeGreaterThan(1);

    // A new analysis revision is a new event.
    const second = await app.db.$transaction((tx) => enqueueCallAnalyzed(tx, call.id, 2, app.config.publicUrl));
    expect(second).not.toBeNull();
    expect(callAnalyzedEventId(call.id, 2)).not.toBe(callAnalyzedEventId(call.id, 1));
  });

  test('enqueues nothing when the transaction rolls back', async ({ hooks: app }) => {
    const { account, call } = await seedAnalyzedCall(app);
    await setWebhookEndpoint(app, account.id, 'http://127.0.0.1:9/hooks');
    const countJobs = async () =>
      (await t.sql("SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE key LIKE 'deliver:%'"))[0].n;
    const jobsBefore = await countJobs();
    await expect(
      app.db.$transaction(async (tx) => {
        await enqueueCallAnalyzed(tx, call.id, 1, app.config.publicUrl);
        throw new Error('analysis failed after all');
      }),
    ).rejects.toThrow('analysis failed');
    expect(await t.sql('SELECT 1 FROM webhook_deliveries WHERE call_id = $1', [call.id])).toHaveLength(0);
    expect(await countJobs()).toBe(jobsBefore);
  });

  test('does nothing without an enabled endpoint', async ({ hooks: app }) => {
    const { account, call } = await seedAnalyzedCall(app);
    expect(await app.db.$transaction((tx) => enqueueCallAnalyzed(tx, call.id, 1, app.config.publicUrl))).toBeNull();
    await setWebhookEndpoint(app, account.id, 'http://127.0.0.1:9/hooks');
    await disableWebhookEndpoint(app, account.id);
    expect(await app.db.$transaction((tx) => enqueueCallAnalyzed(tx, call.id, 1, app.config.publicUrl))).toBeNull();
  });

  test('stores the call.analyzed body of docs/api/product-decisions.md', async ({ hooks: app }) => {
    const { account, agent, campaign, template, call } = await seedAnalyzedCall(app);
    await setWebhookEndpoint(app, account.id, 'http://127.0.0.1:9/hooks');
    const id = await app.db.$transaction((tx) => enqueueCallAnalyzed(tx, call.id, 1, app.config.publicUrl));
    const [{ payload }] = await t.sql('SELECT payload FROM webhook_deliveries WHERE id = $1', [id]);
    expect(payload).toEqual({
      type: 'call.analyzed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        id: call.id,
        external_id: 'ext-1',
        url: `https://escucha.example/calls/${call.id}`,
        status: 'analyzed',
        agent: { id: agent.id, name: 'Ana Pérez', code: 'AG-07' },
        campaign: { id: campaign.id, name: 'Renewals' },
        started_at: '2024-01-15T10:30:00.000Z',
        duration_seconds: 125.5,
        direction: 'outbound',
        language: 'es',
        customer_phone: '+34600111222',
        customer_name: 'Luis',
        template: { id: template.id, name: 'Sales QA' },
        score: 80,
        // Not reviewed: the automatic score is the score.
        auto_score: 80,
        reviewed_at: null,
        coverage: null,
        needs_review: false,
        language_mismatch: false,
        criteria: [
          {
            key: 'greeting',
            label: 'Greets the customer',
            result: 'passed',
            points: 5,
            max_points: 5,
            critical: false,
            evidence: [{ quote: 'buenos días', start: 1.2, end: 2, speaker: 'agent' }],
          },
          {
            key: 'no_insults',
            label: 'No insults',
            result: 'failed',
            points: 0,
            max_points: 3,
            critical: false,
            evidence: [],
          },
        ],
        topic: 'Renewal',
        summary: 'The customer renews.',
        metrics: { talk_ratio: 0.55, longest_silence_seconds: 4.1 },
        // Analyzed before sentiment existed.
        sentiment: null,
      },
    });
  });
});
