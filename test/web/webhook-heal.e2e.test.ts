// Issue 25.2 in real Chromium at 960 px: an endpoint whose signing secret was sealed under another
// APP_SECRET is shown as unable to sign; "Issue a new secret now" shows the new secret, keeps the
// endpoint and its history, and replays the failed delivery, which the receiver verifies with the
// secret the page showed.
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from '../support/harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { sealSecret } from '../../src/crypto/secret-box.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { deliverWebhook } from '../../src/webhooks/deliver.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { runReplay } from '../../src/webhooks/replay.ts';
import { launchChromium, signInAs, type TestBrowser } from '../support/browser.ts';
import type { TestDb } from '../support/db.ts';
import type { TestService } from '../support/service.ts';
import { addAnalyzedCall, enqueueAnalyzed } from '../webhooks/helpers.ts';

let t: TestDb;
let svc: TestService;
let browser: TestBrowser;
let page: Page;

test.beforeAll(async ({ db: testDb, service }) => {
  await buildWeb({ ifStale: true, quiet: true });
  t = testDb;
  svc = service;
  browser = await launchChromium({ viewport: { width: 960, height: 900 } });
  page = browser.page;
}, 240_000);
test.afterAll(async () => {
  await browser?.close();
});

describe('Integrations: an endpoint that cannot sign', () => {
  test('is healed with "Issue a new secret now", its failed delivery replayed and verified with the new secret', async ({
    receiver: newReceiver,
  }) => {
    const receiver = await newReceiver([204]);
    const { account, owner } = await createAccount(svc.app.db, {
      name: 'Acme',
      minutes: 600,
      seats: 5,
      timeZone: 'UTC',
    });
    const { endpoint } = await setWebhookEndpoint(svc.app, account.id, receiver.url);
    await t.sql('UPDATE webhook_endpoints SET secret_encrypted = $1 WHERE id = $2', [
      sealSecret('another-shell-secret-'.padEnd(48, 'y'), 'whsec_c2VhbGVkLWVsc2V3aGVyZQ==', account.id),
      endpoint.id,
    ]);
    const agent = await svc.app.db.agent.create({
      data: { accountId: account.id, name: 'Ana', nameNormalized: 'ana', code: 'AG-07', codeNormalized: 'ag07' },
    });
    const template = await svc.app.db.template.create({
      data: { accountId: account.id, name: 'QA', definition: { criteria: [], topics: [] } },
    });
    const call = await addAnalyzedCall(svc.app, { account, agent, template, campaign: null } as never, {
      campaignId: null,
    });
    const [failed] = await enqueueAnalyzed(svc.app, call.id);
    await deliverWebhook(svc.app, failed!.id);
    expect(receiver.received).toHaveLength(0);

    await signInAs(page, svc.url, owner.email, owner.password);
    await page.getByRole('link', { name: 'Integrations' }).click();
    const alert = page.getByTestId('secret-unreadable');
    await expect.poll(() => alert.textContent()).toMatch(/sealed with another APP_SECRET/);
    await page.getByRole('button', { name: 'Issue a new secret now' }).click();

    const shown = page.getByTestId('secret-value');
    await expect.poll(() => shown.count()).toBe(1);
    const secret = (await shown.textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => alert.count()).toBe(0);
    await expect.poll(() => page.getByTestId('replay-progress').textContent()).toMatch(/0 of 1|0\/1|1/);

    // The worker's replay job (run here: this service has no worker role) redelivers it.
    const [replay] = await t.sql('SELECT id FROM webhook_replays WHERE endpoint_id = $1', [endpoint.id]);
    await runReplay(svc.app, replay.id);
    await receiver.waitFor(1);
    const got = receiver.received[0]!;
    const headers = Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));
    expect(() => new Webhook(secret).verify(got.body, headers)).not.toThrow();
    expect(headers['webhook-id']).toBe(failed!.eventId);
    const [row] = await t.sql('SELECT id, status, attempt_count FROM webhook_deliveries WHERE id = $1', [failed!.id]);
    expect(row).toMatchObject({ status: 'succeeded', attempt_count: 2 });
  }, 120_000);
});
