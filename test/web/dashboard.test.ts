// The dashboard in Chromium (issue 10.5): a manager opens it, sees the period's scored calls per
// agent and criterion and how their customers felt, a review changes a score and the dashboard follows,
// and a table downloads as CSV.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from '../support/harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { launchChromium, type TestBrowser } from '../support/browser.ts';
import type { TestDb } from '../support/db.ts';
import type { TestService } from '../support/service.ts';

const SHOTS = path.resolve('test-results/screenshots');
let t: TestDb;
let svc: TestService;
let browser: TestBrowser;
let page: Page;
let owner: { email: string; password: string };
let accountId: string;

const crit = (key: string, label: string, result: string) => ({
  key,
  label,
  kind: 'phrase',
  result,
  points: result === 'passed' ? 1 : 0,
  max_points: 1,
  critical: false,
  evidence: [],
});

test.beforeAll(async ({ db: testDb, service }) => {
  mkdirSync(SHOTS, { recursive: true });
  await buildWeb({ ifStale: true, quiet: true });
  t = testDb;
  svc = service;
  const created = await createAccount(svc.app.db, { name: 'Dash Co', seats: 5, timeZone: 'Europe/Madrid' });
  owner = created.owner;
  accountId = created.account.id;
  const db = svc.app.db;
  const anna = await db.agent.create({ data: { accountId, name: 'Anna Smith', nameNormalized: 'annasmith' } });
  const bruno = await db.agent.create({ data: { accountId, name: 'Bruno Díaz', nameNormalized: 'brunodiaz' } });
  // Yesterday at noon: inside the default "last 30 days" in any zone.
  const at = new Date(Date.now() - 36 * 3_600_000).toISOString();
  // Anna's customers: one ends happier, one ends worse; Bruno's call is mono without separated
  // voices, so it has no customer sentiment.
  for (const [agent, score, greeting, sentiment, trend] of [
    [anna.id, 90, 'passed', 0.5, 0.4],
    [anna.id, 70, 'failed', -0.3, -0.2],
    [bruno.id, 50, 'failed', null, null],
  ] as const) {
    await t.sql(
      `INSERT INTO calls (id, account_id, source, status, agent_id, started_at, language, topic, score, coverage, criteria,
                          customer_sentiment, customer_sentiment_trend,
                          file_name, file_size, file_sha256, content_type, storage_key, reserved_minutes, period)
       VALUES (gen_random_uuid(), $1, 'api', 'analyzed', $2, $3, 'en', 'Billing', $4, 1, $5::jsonb, $6, $7, 'f.wav', 1,
               'x', 'audio/wav', 'k', 1, '2024-01')`,
      [
        accountId,
        agent,
        at,
        score,
        JSON.stringify([crit('greeting', 'Greets the customer', greeting)]),
        sentiment,
        trend,
      ],
    );
  }
  browser = await launchChromium({
    viewport: { width: 1440, height: 1400 },
    acceptDownloads: true,
    consoleErrors: true,
  });
  page = browser.page;
}, 240_000);

test.afterAll(async () => {
  await browser?.close();
});

describe('dashboard', () => {
  test('shows the period per agent and criterion, follows a review, and exports a table', async () => {
    await page.goto(`${svc.url}/dashboard`);
    await page.waitForURL(/\/signin/);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => page.getByTestId('dashboard-calls').textContent()).toBe('3');
    await expect.poll(() => page.getByTestId('dashboard-average').textContent()).toBe('70');
    const agents = page.getByTestId('dashboard-agents');
    await expect.poll(() => agents.locator('tbody tr').first().textContent()).toContain('Anna Smith');
    await expect
      .poll(() => page.getByTestId('dashboard-criteria').locator('tbody tr').first().textContent())
      .toMatch(/^greeting33\s?%/); // no template names it: the key, pass rate 1 of 3
    // How the customers felt: the two calls with a sentiment average +0.10, one ended better, one worse.
    await expect.poll(() => page.getByTestId('dashboard-sentiment-average').textContent()).toBe('+0.10');
    expect(await page.getByTestId('dashboard-sentiment-better').textContent()).toMatch(/^50\s?%$/);
    expect(await page.getByTestId('dashboard-sentiment-worse').textContent()).toMatch(/^50\s?%$/);
    const annaRow = await agents.locator('tbody tr').first().locator('td').allTextContents();
    // The table has the average (the shares per agent are in its CSV; the table must fit at 960 px).
    expect(annaRow.at(-1)).toBe('+0.10');
    const brunoRow = await agents.locator('tbody tr').nth(1).locator('td').allTextContents();
    expect(brunoRow.at(-1)).toBe('—');
    await page.screenshot({ path: path.join(SHOTS, 'dashboard.png'), fullPage: true });

    // A review lowers Bruno's score (in place, as the review feature does): the dashboard follows.
    await t.sql(`UPDATE calls SET score = 20 WHERE account_id = $1 AND score = 50`, [accountId]);
    await page.reload();
    await expect.poll(() => page.getByTestId('dashboard-average').textContent()).toBe('60');

    // One agent only.
    await page.locator('#d-agent').selectOption({ label: 'Anna Smith' });
    await expect.poll(() => page.getByTestId('dashboard-calls').textContent()).toBe('2');

    const download = page.waitForEvent('download');
    await page.getByTestId('csv-agents').click();
    const file = await (await download).path();
    const text = await readFile(file, 'utf8');
    expect(text).toContain('agent,calls,average_score');
    expect(text).toContain('Anna Smith,2,80');

    // The sentiment table downloads too, with the filter (Anna only).
    const sentimentDownload = page.waitForEvent('download');
    await page.getByTestId('csv-sentiment').click();
    const sentimentCsv = await readFile(await (await sentimentDownload).path(), 'utf8');
    expect(sentimentCsv).toContain('period,calls,sentiment_calls,average_customer_sentiment');
    expect(sentimentCsv).toMatch(/,2,2,0\.1,2,1,1,50,50/);

    // In Spanish the card reads natively, with a decimal comma.
    await page.evaluate(() => localStorage.setItem('escucha.lang', 'es'));
    await page.reload();
    await expect.poll(() => page.getByTestId('dashboard-sentiment-average').textContent()).toBe('+0,10');
    expect(await page.getByText('Sentimiento del cliente', { exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByText('Acabaron mejor').first().isVisible()).toBe(true);
    expect(browser.errors).toEqual([]);
  });
});
