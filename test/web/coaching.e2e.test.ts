// Coaching in Chromium (issue 31.3), at 960 px: a manager assigns a coaching item from a call's
// failed criterion, pinned to a moment, with a due day; the agent finds it on their own pages,
// plays the moment and acknowledges it with the keyboard; the manager reads it in the report and
// marks it done with a note; the agent then sees it done. The pages read natively in Spanish.
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { criterionResult, insertCall } from '../graphql/fixtures.ts';
import { launchChromium, signInAs } from '../support/browser.ts';
import { describe, expect, test } from '../support/harness.ts';

describe('coaching journey', () => {
  test('assigned from a failed criterion, acknowledged by the agent, completed by the manager', {
    timeout: 300_000,
  }, async ({ service }) => {
    await buildWeb({ ifStale: true, quiet: true });
    const db = service.app.db;
    const { account, owner } = await createAccount(db, { name: 'Coach Co', seats: 5 });
    const ana = await db.agent.create({
      data: { accountId: account.id, name: 'Ana García', nameNormalized: 'anagarcia' },
    });
    const agentUser = { email: 'ana@example.com', password: 'correct horse battery' };
    await db.user.create({
      data: {
        accountId: account.id,
        email: agentUser.email,
        name: 'Ana (agent)',
        role: 'agent',
        agentId: ana.id,
        passwordHash: await hashPassword(agentUser.password),
      },
    });
    const call = await insertCall(
      db,
      { accountId: account.id, agentId: ana.id },
      {
        score: 50,
        criteria: [
          { ...criterionResult('greeting', 'Greets the customer', 'failed'), evidence: [] },
          criterionResult('close', 'Closes the call', 'passed'),
        ],
      },
    );

    const browser = await launchChromium({ viewport: { width: 960, height: 1000 }, consoleErrors: true });
    try {
      const { page, context } = browser;
      // The manager assigns from the call page.
      await signInAs(page, service.url, owner.email, owner.password);
      await page.waitForURL(/\/calls/);
      await page.goto(`${service.url}/calls/${call.id}`);
      await page.getByTestId('assign-coaching').click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByLabel('Greets the customer (failed)').isChecked()).toBe(true);
      await dialog.getByLabel('What to improve').fill('Say your name and the company first.');
      await dialog.getByLabel('Moments').fill('0:02, 1:00');
      await dialog.getByLabel('Due').fill('2020-01-31');
      await dialog.getByRole('button', { name: 'Assign' }).click();
      const onCall = page.getByTestId('call-coaching').getByTestId('coaching-item');
      await expect.poll(() => onCall.count()).toBe(1);
      expect(await onCall.textContent()).toContain('Say your name and the company first.');
      expect(await onCall.getByText('Overdue').isVisible()).toBe(true);

      // The agent finds it on their own pages and acknowledges it with the keyboard.
      await context.clearCookies();
      await signInAs(page, service.url, agentUser.email, agentUser.password);
      await page.waitForURL(/\/calls/);
      await page.getByRole('navigation').getByRole('link', { name: 'Coaching' }).click();
      await page.waitForURL(/\/coaching/);
      const item = page.getByTestId('coaching-item');
      await expect.poll(() => item.count()).toBe(1);
      expect(await item.getByTestId('coaching-moments').textContent()).toContain('1:00');
      await item.getByRole('button', { name: 'Play from 0:02' }).click();
      await expect.poll(() => page.getByTestId('inline-player').isVisible()).toBe(true);
      await item.getByRole('button', { name: 'Acknowledge' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => item.getByTestId('coaching-status').textContent()).toBe('Acknowledged');
      // No way for the agent to mark it done.
      expect(await item.getByRole('button', { name: 'Mark done' }).count()).toBe(0);
      // Their call page shows it too, under the criteria.
      await page.goto(`${service.url}/calls/${call.id}`);
      await expect.poll(() => page.getByTestId('call-coaching').textContent()).toContain('Say your name');

      // The manager reads it in the report and marks it done with a note.
      await context.clearCookies();
      await signInAs(page, service.url, owner.email, owner.password);
      await page.waitForURL(/\/calls/);
      await page.goto(`${service.url}/coaching`);
      const report = page.getByTestId('coaching-report');
      await expect
        .poll(() => report.locator('tbody tr').first().locator('td').allTextContents())
        .toEqual(['Ana García', '1', '1', '1', '0']);
      await report.getByRole('link', { name: 'Ana García' }).click();
      await page.waitForURL(/agent=/);
      const managed = page.getByTestId('coaching-item');
      await managed.getByRole('button', { name: 'Mark done' }).click();
      await managed.getByLabel('Note').fill('Greets by name on every call this week.');
      await managed.getByRole('button', { name: 'Mark done' }).click();
      // Done leaves the open view; the done view has it with the note.
      await expect.poll(() => page.getByTestId('coaching-item').count()).toBe(0);
      await page.goto(`${service.url}/coaching?view=done`);
      await expect
        .poll(() => page.getByTestId('coaching-note').textContent())
        .toBe('Greets by name on every call this week.');
      await expect
        .poll(() => report.locator('tbody tr').first().locator('td').allTextContents())
        .toEqual(['Ana García', '0', '0', '0', '1']);

      // The agent sees it done, in Spanish; the page fits 960 px without scrolling sideways.
      await context.clearCookies();
      await signInAs(page, service.url, agentUser.email, agentUser.password);
      await page.waitForURL(/\/calls/);
      await page.evaluate(() => localStorage.setItem('escucha.lang', 'es'));
      await page.goto(`${service.url}/coaching?view=done`);
      await expect.poll(() => page.getByTestId('coaching-status').textContent()).toBe('Hecho');
      expect(await page.getByRole('heading', { name: 'Coaching', level: 1 }).isVisible()).toBe(true);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
