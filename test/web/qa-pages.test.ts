// The QA pages in real Chromium (issue 10.2, 10.6, 10.7): a half-evaluated score does not look
// complete, the review queue lists calls with their reasons and "done" takes one out, and a bulk
// re-analysis shows its count, asks, shows progress and stops; saving a template offers to apply it.
import type { Page } from 'playwright-core';
import { describe, expect, test } from '../support/harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { setReviewSamplePercent } from '../../src/review/review-queue.ts';
import { insertCall, TEMPLATE_DEFINITION } from '../graphql/fixtures.ts';
import { launchChromium, type TestBrowser } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

let svc: TestService;
let browser: TestBrowser;
let page: Page;
let owner: { email: string; password: string };
let templateId: string;

test.beforeAll(async ({ service }) => {
  await buildWeb({ ifStale: true, quiet: true });
  // No worker: the bulk re-analysis stays running, so its progress and stop button can be seen.
  svc = service;
  const db = svc.app.db;
  const created = await createAccount(db, { name: 'Acme', minutes: 600, seats: 5, timeZone: 'UTC' });
  owner = created.owner;
  const accountId = created.account.id;
  await setReviewSamplePercent(db, accountId, 0);
  const agent = await db.agent.create({ data: { accountId, name: 'Anna Smith', nameNormalized: 'annasmith' } });
  const template = await db.template.create({ data: { accountId, name: 'Support', definition: TEMPLATE_DEFINITION } });
  templateId = template.id;
  await db.account.update({ where: { id: accountId }, data: { defaultTemplateId: template.id } });
  const own = { accountId, agentId: agent.id, templateId: template.id };
  const recent = (days: number) => new Date(Date.now() - days * 86400_000);
  await insertCall(db, own, {
    startedAt: recent(1),
    score: 100,
    coverage: 0.5,
    needsReview: true,
    customerName: 'Half Evaluated',
  });
  await insertCall(db, own, {
    startedAt: recent(2),
    score: 90,
    coverage: 1,
    languageMismatch: true,
    customerName: 'Other Language',
  });
  await insertCall(db, own, { startedAt: recent(3), score: 85, coverage: 1, customerName: 'Plain Call' });
  browser = await launchChromium();
  page = browser.page;
}, 240_000);

test.afterAll(async () => {
  await browser?.close();
});

const dialog = () => page.locator('dialog[open]');

describe('QA pages', () => {
  test('shows coverage and flags, lists the review queue, and runs a bulk re-analysis with count, progress and stop', async () => {
    await page.goto(`${svc.url}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/calls$/);

    // Honest scores in the list: "50 % evaluated" beside a hatched 100, and the flags.
    const half = page.locator('tr').filter({ hasText: 'Half Evaluated' });
    await expect.poll(() => half.getByTestId('qa-score').textContent()).toContain('50% evaluated');
    await expect.poll(() => half.textContent()).toContain('Needs review');
    expect(await half.locator('.score-partial').count()).toBe(1);
    await expect
      .poll(() => page.locator('tr').filter({ hasText: 'Other Language' }).textContent())
      .toContain('Language mismatch');
    expect(await page.locator('tr').filter({ hasText: 'Plain Call' }).locator('.score-partial').count()).toBe(0);

    // The call page says the same in words.
    await half.getByRole('link').first().click();
    await expect.poll(() => page.getByTestId('qa-note').textContent()).toContain('Only 50%');

    // Review queue: the two flagged calls with their reasons; "Done" takes one out.
    await page.getByRole('link', { name: 'Review queue' }).click();
    await page.getByTestId('review-row').first().waitFor();
    expect(await page.getByTestId('review-row').count()).toBe(2);
    await expect.poll(() => page.getByTestId('review-table').textContent()).toContain('Low coverage');
    expect(await page.getByTestId('review-table').textContent()).toContain('Language mismatch');
    await page
      .getByTestId('review-row')
      .filter({ hasText: 'Half Evaluated' })
      .getByRole('button', { name: 'Assign to me' })
      .click();
    await expect
      .poll(() => page.getByTestId('review-row').filter({ hasText: 'Half Evaluated' }).textContent())
      .toMatch(/Acme|owner|@/i);
    await page.getByTestId('review-row').filter({ hasText: 'Half Evaluated' }).getByTestId('review-done').click();
    await expect.poll(() => page.getByTestId('review-row').count()).toBe(1);

    // Bulk re-analysis from the calls list: the count first, then progress, then stop.
    await page.getByRole('link', { name: 'Calls' }).click();
    await page.getByTestId('bulk-reanalyze').click();
    await expect.poll(() => dialog().getByTestId('bulk-question').textContent()).toContain('3 calls');
    await dialog().getByTestId('bulk-confirm').click();
    await expect.poll(() => dialog().getByTestId('bulk-progress').textContent()).toContain('0 of 3');
    await dialog().getByTestId('bulk-cancel').click();
    await expect.poll(() => dialog().getByTestId('bulk-progress').getAttribute('data-status')).toBe('CANCELLED');
    await dialog().getByRole('button', { name: 'Close', exact: true }).last().click();

    // Saving the template offers to apply it to its calls of the last 30 days.
    await page.goto(`${svc.url}/templates/${templateId}`);
    await page.getByTestId('save-template').waitFor();
    await page.getByLabel('Minimum coverage (%)').fill('60');
    await page.getByTestId('save-template').click();
    await expect
      .poll(() => dialog().getByTestId('bulk-question').textContent())
      .toContain('Apply to the 3 calls of the last 30 days scored with this template?');
    const saved = await svc.app.db.template.findUniqueOrThrow({ where: { id: templateId } });
    expect((saved.definition as { minCoverage?: number }).minCoverage).toBe(60);
    expect(browser.errors).toEqual([]);
  });
});
