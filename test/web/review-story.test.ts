// The QA story end to end in Chromium (issue 10, "Tests"): a manager corrects a misheard greeting,
// the call's agent disputes another criterion, an analyst accepts the dispute (the criterion is
// overridden), and the dashboard's average score and disputes move with each step.
import { describe, expect, test } from '../support/harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { insertCall } from '../graphql/fixtures.ts';
import { launchChromium, signInAs, type TestBrowser } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

const PASSWORD = 'story-password-1234';
// Three criteria worth 4, 4 and 2: a call that fails the first two scores 20.
const DEFINITION = {
  version: 1,
  criteria: [
    { key: 'greeting', label: 'Greets with the company name', weight: 4, kind: 'phrase', phrases: ['acme'] },
    { key: 'closing', label: 'Offers more help', weight: 4, kind: 'phrase', phrases: ['anything else'] },
    { key: 'no_swearing', label: 'No swearing', weight: 2, kind: 'forbidden', phrases: ['damn'] },
  ],
  topics: [],
};
const crit = (key: string, label: string, weight: number, passed: boolean) => ({
  key,
  label,
  kind: 'phrase',
  result: passed ? 'passed' : 'failed',
  points: passed ? weight : 0,
  max_points: weight,
  critical: false,
  evidence: [],
});

let svc: TestService;
let browser: TestBrowser;
let owner: { email: string; password: string };
let callId: string;
const users = { agent: '', analyst: '' };

test.beforeAll(async ({ service }) => {
  await buildWeb({ ifStale: true, quiet: true });
  svc = service;
  const db = svc.app.db;
  const created = await createAccount(db, { name: 'Acme', seats: 5, timeZone: 'UTC' });
  owner = created.owner;
  const accountId = created.account.id;
  const anna = await db.agent.create({ data: { accountId, name: 'Anna Smith', nameNormalized: 'annasmith' } });
  const template = await db.template.create({ data: { accountId, name: 'Support', definition: DEFINITION } });
  const passwordHash = await hashPassword(PASSWORD);
  for (const [role, name] of [
    ['agent', 'Anna Smith'],
    ['analyst', 'Marta Ruiz'],
  ] as const) {
    const email = `${role}-${accountId.slice(0, 8)}@example.com`;
    await db.user.create({
      data: { accountId, email, name, role, passwordHash, agentId: role === 'agent' ? anna.id : null },
    });
    users[role] = email;
  }
  const own = { accountId, agentId: anna.id, templateId: template.id };
  // Yesterday: inside the dashboard's default "last 30 days" and the agent's 7-day window.
  const startedAt = new Date(Date.now() - 24 * 3_600_000);
  // The recogniser heard "AKME": greeting and closing failed, 20 points.
  const misheard = await insertCall(db, own, {
    startedAt,
    score: 20,
    coverage: 1,
    customerName: 'Misheard Greeting',
    criteria: [
      crit('greeting', 'Greets with the company name', 4, false),
      crit('closing', 'Offers more help', 4, false),
      crit('no_swearing', 'No swearing', 2, true),
    ],
  });
  callId = misheard.id;
  await insertCall(db, own, {
    startedAt,
    score: 100,
    coverage: 1,
    customerName: 'Good Call',
    criteria: [
      crit('greeting', 'Greets with the company name', 4, true),
      crit('closing', 'Offers more help', 4, true),
      crit('no_swearing', 'No swearing', 2, true),
    ],
  });
  browser = await launchChromium({ viewport: { width: 1440, height: 1400 }, consoleErrors: true });
}, 240_000);

test.afterAll(async () => {
  await browser?.close();
});

describe('review story', () => {
  test('a manager corrects a greeting, the agent disputes, an analyst accepts, and the dashboard moves', async () => {
    const { page, context } = browser;
    const average = () => page.getByTestId('dashboard-average').textContent();
    // Opened, still open, accepted, rejected (after the period, before the median time).
    const disputeCounts = async () =>
      (await page.getByTestId('dashboard-disputes').locator('tbody tr').first().locator('td').allTextContents()).slice(
        1,
        5,
      );
    const signInAgain = async (email: string, password: string) => {
      await context.clearCookies();
      await signInAs(page, svc.url, email, password);
      await page.waitForURL(/\/calls$/);
    };

    // The manager sees the period: two calls, 20 and 100, no disputes yet.
    await signInAs(page, svc.url, owner.email, owner.password);
    await page.waitForURL(/\/calls$/);
    await page.goto(`${svc.url}/dashboard`);
    await expect.poll(() => page.getByTestId('dashboard-calls').textContent()).toBe('2');
    await expect.poll(average).toBe('60');
    await page.getByTestId('dashboard-disputes-empty').waitFor();

    // She corrects the misheard greeting on the call page: passed, with a note; 20 → 60.
    await page.goto(`${svc.url}/calls/${callId}`);
    const panel = page.getByTestId('review-panel');
    await panel.getByRole('button', { name: 'Override Greets with the company name' }).click();
    await panel.getByLabel('Result', { exact: true }).selectOption('PASSED');
    await panel.getByLabel('Note', { exact: true }).fill('The recogniser heard "AKME"; she said "Acme".');
    await panel.getByRole('button', { name: 'Save review' }).click();
    await expect.poll(() => panel.textContent()).toContain('The recogniser heard "AKME"');
    await page.goto(`${svc.url}/dashboard`);
    await expect.poll(average).toBe('80');

    // The agent disputes the closing on her own call.
    await signInAgain(users.agent, PASSWORD);
    await page.goto(`${svc.url}/calls/${callId}`);
    const criteria = page.getByTestId('agent-criteria');
    await criteria.getByRole('button', { name: 'Dispute Offers more help' }).click();
    await criteria.getByLabel('What was scored wrong?').fill('I asked "is there anything more I can do?"');
    await criteria.getByRole('button', { name: 'Send dispute' }).click();
    await expect.poll(() => page.getByTestId('dispute').first().textContent()).toContain('anything more I can do');

    // An analyst accepts it from the dispute queue: the closing is overridden to passed, 60 → 100.
    await signInAgain(users.analyst, PASSWORD);
    await page.goto(`${svc.url}/disputes`);
    const dispute = page.getByTestId('dispute-queue').getByTestId('dispute').first();
    await expect.poll(() => dispute.textContent()).toContain('anything more I can do');
    await dispute.getByRole('button', { name: 'Answer the dispute of Offers more help' }).click();
    await dispute.getByLabel('Reply', { exact: true }).fill('Right, that offers more help.');
    await dispute.getByRole('button', { name: 'Accept and override' }).click();
    await expect.poll(() => page.getByTestId('dispute-queue').count()).toBe(0);
    const call = await svc.app.db.call.findUniqueOrThrow({ where: { id: callId } });
    expect(call).toMatchObject({ score: 100, autoScore: 20, openDisputes: 0 });

    // The dashboard: average 100 now, and today's dispute opened and accepted.
    await page.goto(`${svc.url}/dashboard`);
    await expect.poll(average).toBe('100');
    await expect.poll(disputeCounts).toEqual(['1', '0', '1', '0']);
    expect(browser.errors).toEqual([]);
  });
});
