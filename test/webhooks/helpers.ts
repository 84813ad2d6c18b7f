import { randomUUID } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { Webhook } from 'standardwebhooks';
import type { AppContext } from '../../src/context.ts';
import type { Prisma } from '../../src/generated/prisma/client.ts';
import { enqueueCallAnalyzed } from '../../src/webhooks/enqueue.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import type { TestDb } from '../support/db.ts';
import { test as harness, type TestApp, testApp } from '../support/harness.ts';

/** The harness's app, with the public URL these tests' payloads expect. */
export function makeApp(t: TestDb, opts: { allowPrivate?: boolean } = {}): TestApp {
  return testApp(t, {
    PUBLIC_URL: 'https://escucha.example',
    WEBHOOK_ALLOW_PRIVATE: String(opts.allowPrivate ?? true),
  });
}

/** The harness's `test` with `hooks`: makeApp on the file's database, made once per file. */
export const test = harness.extend<{ hooks: TestApp }>({
  hooks: [
    async ({ db }, use) => {
      const app = makeApp(db);
      await use(app);
      app.dispose();
    },
    { scope: 'file' },
  ],
});

/** An account with an agent, a campaign, a template and one analyzed call. */
export async function seedAnalyzedCall(app: AppContext) {
  const account = await app.db.account.create({ data: { name: 'Acme' } });
  const agent = await app.db.agent.create({
    data: {
      accountId: account.id,
      name: 'Ana Pérez',
      nameNormalized: 'ana perez',
      code: 'AG-07',
      codeNormalized: 'ag07',
    },
  });
  const campaign = await app.db.campaign.create({
    data: { accountId: account.id, name: 'Renewals', nameNormalized: 'renewals' },
  });
  const template = await app.db.template.create({
    data: { accountId: account.id, name: 'Sales QA', definition: { criteria: [], topics: [] } },
  });
  const call = await app.db.call.create({
    data: analyzedCallData({
      accountId: account.id,
      agentId: agent.id,
      campaignId: campaign.id,
      templateId: template.id,
    }),
  });
  return { account, agent, campaign, template, call };
}

function analyzedCallData(ids: { accountId: string; agentId: string; campaignId: string | null; templateId: string }) {
  return {
    ...ids,
    externalId: 'ext-1',
    source: 'api',
    status: 'analyzed',
    startedAt: new Date('2024-01-15T10:30:00Z'),
    customerPhone: '+34600111222',
    customerName: 'Luis',
    direction: 'outbound',
    language: 'es',
    fileName: 'call.wav',
    fileSize: 1000n,
    fileSha256: 'ab'.repeat(32),
    contentType: 'audio/wav',
    storageKey: 'k/call.wav',
    durationSeconds: 125.5,
    reservedMinutes: 1,
    period: '2024-01',
    score: 80,
    topic: 'Renewal',
    summary: 'The customer renews.',
    criteria: [
      {
        key: 'greeting',
        label: 'Greets the customer',
        kind: 'phrase',
        result: 'passed',
        points: 5,
        max_points: 5,
        critical: false,
        evidence: [{ quote: 'buenos días', start: 1.2, end: 2, speaker: 'agent' }],
        internal: 'x',
      },
      {
        key: 'no_insults',
        label: 'No insults',
        kind: 'forbidden',
        result: 'failed',
        points: 0,
        max_points: 3,
        critical: false,
        evidence: [],
      },
    ],
    metrics: { talk_ratio: 0.55, longest_silence_seconds: 4.1 },
    analysisRevision: 1,
    analyzedAt: new Date(),
  } satisfies Prisma.CallUncheckedCreateInput;
}

/** Jobs waiting in graphile-worker for a delivery. */
export async function deliveryJobs(t: TestDb, deliveryId: string) {
  return t.sql<{ id: string; run_at: Date; max_attempts: number }>(
    `SELECT j.id, j.run_at, j.max_attempts FROM graphile_worker._private_jobs j WHERE j.key = $1`,
    [`deliver:${deliveryId}`],
  );
}

/** An analyzed call whose account has an endpoint at `url`, and its enqueued call.analyzed delivery. */
export async function seedDelivery(app: AppContext, url: string) {
  const seeded = await seedAnalyzedCall(app);
  const { secret } = await setWebhookEndpoint(app, seeded.account.id, url);
  const deliveryId = await app.db.$transaction((tx) =>
    enqueueCallAnalyzed(tx, seeded.call.id, 1, app.config.publicUrl),
  );
  return { ...seeded, secret: secret!, deliveryId: deliveryId! };
}

export async function attempts(t: TestDb, deliveryId: string) {
  return t.sql(
    'SELECT attempt_number, status_code, duration_ms, error, response_excerpt, manual FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_number',
    [deliveryId],
  );
}

export async function delivery(t: TestDb, deliveryId: string) {
  const [row] = await t.sql(
    'SELECT status, attempt_count, next_attempt_at, completed_at, event_id FROM webhook_deliveries WHERE id = $1',
    [deliveryId],
  );
  return row;
}

/** Another analyzed call in the seeded account (in its campaign, another one, or none). */
export async function addAnalyzedCall(
  app: AppContext,
  seeded: Awaited<ReturnType<typeof seedAnalyzedCall>>,
  over: { campaignId?: string | null } = {},
) {
  const data = analyzedCallData({
    accountId: seeded.account.id,
    agentId: seeded.agent.id,
    campaignId: over.campaignId === undefined ? seeded.campaign.id : over.campaignId,
    templateId: seeded.template.id,
  });
  return app.db.call.create({ data: { ...data, externalId: `ext-${randomUUID()}` } });
}

/** Enqueues call.analyzed for `callId` (revision 1) and returns every delivery made for it. */
export async function enqueueAnalyzed(app: AppContext, callId: string) {
  await app.db.$transaction((tx) => enqueueCallAnalyzed(tx, callId, 1, app.config.publicUrl));
  return app.db.webhookDelivery.findMany({ where: { callId }, orderBy: { createdAt: 'asc' } });
}

/**
 * A receiver at `url` (msw) that verifies with whatever secret `config` holds now, 401 when it cannot;
 * logs each webhook-id, whether it was accepted and how many signatures it carried.
 */
export function verifyingReceiver(server: SetupServer, url: string, config: { secret: string }) {
  const log: { id: string; accepted: boolean; signatures: number }[] = [];
  server.use(
    http.post(url, async ({ request }) => {
      const body = await request.text();
      const headers = Object.fromEntries(request.headers);
      let accepted = true;
      try {
        new Webhook(config.secret).verify(body, headers);
      } catch {
        accepted = false;
      }
      log.push({ id: headers['webhook-id']!, accepted, signatures: headers['webhook-signature']!.split(' ').length });
      return new HttpResponse(null, { status: accepted ? 204 : 401 });
    }),
  );
  return log;
}
