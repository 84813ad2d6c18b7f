// Issue 13's "done when", in real Chromium against the real service: an owner deletes a call,
// deletes every call of a filtered list, sets a retention period, and sees all of it in the audit log.
import type { Page } from 'playwright-core';
import { describe, expect, test } from '../support/harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createAgent } from '../../src/accounts/agents.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { launchChromium, type TestBrowser } from '../support/browser.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import type { TestService } from '../support/service.ts';

let svc: TestService;
let browser: TestBrowser;
let page: Page;
let owner: { email: string; password: string };
let key: string;

test.beforeAll(async ({ service }) => {
  await buildWeb({ ifStale: true, quiet: true });
  // No worker: posted calls stay queued, in the "in progress" view.
  svc = service;
  const created = await createAccount(svc.app.db, { name: 'Acme Support', minutes: 600, seats: 5, timeZone: 'UTC' });
  owner = created.owner;
  await createAgent(svc.app.db, created.account.id, { name: 'Anna Smith', code: 'AG-07' });
  key = (await createApiKey(svc.app.db, created.account.id, 'intake')).key;
  browser = await launchChromium({ reportCsp: true });
  page = browser.page;
}, 240_000);

test.afterAll(async () => {
  await browser?.close();
});

const dialog = () => page.locator('dialog[open]');
const post = (externalId: string) =>
  postCall(svc.url, {
    key,
    file: { blob: wavBlob(4096), name: 'call.wav' },
    fields: { agent_code: 'AG-07', external_id: externalId },
  });

describe('retention, deletion and the audit log in the app', () => {
  test('an owner deletes a call and a filtered list, sets retention, and sees it all in the audit log', async () => {
    const one = await post('crm-1');
    expect(one.status).toBe(201);
    for (const id of ['crm-2', 'crm-3']) expect((await post(id)).status).toBe(201);

    await page.goto(`${svc.url}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/calls/);

    // One call, from its page.
    await page.goto(`${svc.url}/calls/${one.body.id}`);
    await page.getByTestId('delete-call').click();
    await dialog().getByRole('button', { name: 'Delete call' }).click();
    await page.waitForURL(/\/calls$/);
    expect(await svc.app.db.call.count({ where: { id: one.body.id } })).toBe(0);

    // Every call of the in-progress list: the count first, then the confirmation.
    await page.goto(`${svc.url}/calls?view=in_progress`);
    await page.getByTestId('bulk-delete').click();
    await expect.poll(() => page.getByTestId('bulk-delete-count').textContent()).toContain('2 calls match');
    await dialog().getByRole('button', { name: 'Delete 2 calls' }).click();
    await page.getByText('2 calls deleted.').waitFor();
    expect(await svc.app.db.call.count()).toBe(0);

    // A resent external_id still answers exists.
    expect((await post('crm-2')).body.status).toBe('exists');

    // Usage shows the storage freed.
    await page.goto(`${svc.url}/usage`);
    await expect.poll(() => page.getByTestId('storage-freed').textContent()).toMatch(/freed by deletion and retention/);

    // A call whose recording retention removed says so on its page.
    const kept = await post('crm-4');
    await svc.app.db.call.update({
      where: { id: kept.body.id },
      data: { recordingDeletedAt: new Date('2026-03-02T10:00:00Z') },
    });
    await page.goto(`${svc.url}/calls/${kept.body.id}`);
    await expect.poll(() => page.getByTestId('retention-notice').textContent()).toContain('Recording deleted on');

    // Retention.
    await page.goto(`${svc.url}/settings`);
    await page.getByTestId('retention-recording').fill('30');
    await page.getByTestId('retention-transcript').fill('365');
    await page.getByTestId('retention-form').getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Retention saved.').waitFor();

    // The audit log shows all three, newest first, with who did it.
    await page.getByTestId('audit-link').click();
    await page.waitForURL(/\/settings\/audit$/);
    const rows = page.getByTestId('audit-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const text = await page.getByTestId('audit-table').textContent();
    for (const action of ['Retention changed', 'Calls deleted (filter)', 'Call deleted'])
      expect(text, action).toContain(action);
    expect(text).toContain('Recordings kept (days): — → 30');
    expect(text).toContain(owner.email);
    await page.getByTestId('audit-action').selectOption('call.deleted');
    await expect.poll(() => rows.count()).toBe(1);

    expect(browser.errors).toEqual([]);
    expect(browser.cspViolations).toEqual([]);
  }, 180_000);
});
