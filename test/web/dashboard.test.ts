// The dashboard in Chromium (issue 10.5): a manager opens it, sees the period's scored calls per
// agent and criterion, a review changes a score and the dashboard follows, and a table downloads as CSV.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/domain/accounts.ts';
import { launchChromium, type TestBrowser } from '../support/browser.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

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

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await buildWeb({ ifStale: true, quiet: true });
  t = await createTestDb();
  svc = await startTestService(t);
  const created = await createAccount(svc.app.db, { name: 'Dash Co', seats: 5, timeZone: 'Europe/Madrid' });
  owner = created.owner;
  accountId = created.account.id;
  const db = svc.app.db;
  const anna = await db.agent.create({ data: { accountId, name: 'Anna Smith', nameNormalized: 'annasmith' } });
  const bruno = await db.agent.create({ data: { accountId, name: 'Bruno Díaz', nameNormalized: 'brunodiaz' } });
  // Yesterday at noon: inside the default "last 30 days" in any zone.
  const at = new Date(Date.now() - 36 * 3_600_000).toISOString();
  for (const [agent, score, greeting] of [
    [anna.id, 90, 'passed'],
    [anna.id, 70, 'failed'],
    [bruno.id, 50, 'failed'],
  ] as const) {
    await t.sql(
      `INSERT INTO calls (id, account_id, source, status, agent_id, started_at, language, topic, score, coverage, criteria,
                          file_name, file_size, file_sha256, content_type, storage_key, reserved_minutes, period)
       VALUES (gen_random_uuid(), $1, 'api', 'analyzed', $2, $3, 'en', 'Billing', $4, 1, $5::jsonb, 'f.wav', 1, 'x',
               'audio/wav', 'k', 1, '2024-01')`,
      [accountId, agent, at, score, JSON.stringify([crit('greeting', 'Greets the customer', greeting)])],
    );
  }
  browser = await launchChromium({
    viewport: { width: 1440, height: 1400 },
    acceptDownloads: true,
    consoleErrors: true,
  });
  page = browser.page;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await t?.drop();
});

describe('dashboard', () => {
  it('shows the period per agent and criterion, follows a review, and exports a table', async () => {
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
    await page.screenshot({ path: path.join(SHOTS, 'dashboard.png') });

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
    expect(browser.errors).toEqual([]);
  });
});
