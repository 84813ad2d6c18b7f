// The confirmations of the Team page (deactivate an agent, remove a user) and of a webhook endpoint
// (rotate its secret, remove it) in Chromium, at 960 px, with the keyboard only: each dialog opens
// from its button, Cancel leaves everything as it was, and confirming shows the change on the page.
import type { Locator, Page } from 'playwright-core';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { launchChromium, signInAs } from '../support/browser.ts';
import { describe, expect, test } from '../support/harness.ts';

/** Focuses `button` and presses Enter: the dialog it opens is returned once it is shown. */
async function openWithKeyboard(page: Page, button: Locator): Promise<Locator> {
  await button.focus();
  await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
  await page.keyboard.press('Enter');
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor().catch(async (error) => {
    const state = await page.evaluate(() => [
      document.activeElement?.outerHTML,
      [...document.querySelectorAll('dialog')].map((d) => `open=${d.open} ${d.textContent}`),
    ]);
    throw new Error(`no dialog after Enter: ${JSON.stringify(state)}`, { cause: error });
  });
  return dialog;
}

/** Tabs from where the dialog put focus to the button named `name`, then presses Enter on it. */
async function pressInDialog(page: Page, dialog: Locator, name: string) {
  const target = dialog.getByRole('button', { name, exact: true });
  for (let i = 0; i < 5 && !(await target.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  expect(await target.evaluate((el) => el === document.activeElement), `focus on ${name}`).toBe(true);
  await page.keyboard.press('Enter');
}

describe('team page confirmations', () => {
  test('deactivate an agent and remove a user: cancel changes nothing, confirm shows the change', {
    timeout: 300_000,
  }, async ({ service }) => {
    await buildWeb({ ifStale: true, quiet: true });
    const db = service.app.db;
    const { account, owner } = await createAccount(db, { name: 'Team Co', seats: 5 });
    await db.agent.create({ data: { accountId: account.id, name: 'Ana García', nameNormalized: 'anagarcia' } });
    await db.user.create({
      data: {
        accountId: account.id,
        email: 'bea@example.com',
        name: 'Bea Analyst',
        role: 'analyst',
        passwordHash: await hashPassword('correct horse battery'),
      },
    });

    const browser = await launchChromium({ viewport: { width: 960, height: 1000 }, consoleErrors: true });
    try {
      const { page } = browser;
      await signInAs(page, service.url, owner.email, owner.password);
      await page.waitForURL(/\/calls/);
      await page.goto(`${service.url}/team`);
      const agentRow = page.getByTestId('agent-row').filter({ hasText: 'Ana García' });
      await agentRow.waitFor();
      const userRow = page.locator('tr').filter({ hasText: 'bea@example.com' });
      await userRow.waitFor();

      // Deactivate: Cancel keeps the agent active; confirming turns the row inactive.
      const deactivate = agentRow.getByRole('button', { name: 'Deactivate' });
      let dialog = await openWithKeyboard(page, deactivate);
      expect(await dialog.getByRole('heading', { name: 'Deactivate Ana García?' }).isVisible()).toBe(true);
      await pressInDialog(page, dialog, 'Cancel');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
      expect(await agentRow.getByText('Active', { exact: true }).isVisible()).toBe(true);
      expect((await db.agent.findFirstOrThrow({ where: { accountId: account.id } })).active).toBe(true);

      dialog = await openWithKeyboard(page, deactivate);
      await pressInDialog(page, dialog, 'Deactivate');
      await expect.poll(() => agentRow.getByText('Deactivated', { exact: true }).isVisible()).toBe(true);
      expect(await agentRow.getByRole('button', { name: 'Reactivate' }).isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Ana García was deactivated.').isVisible()).toBe(true);

      // Remove: Cancel keeps the user; confirming takes the row off the list.
      const remove = userRow.getByRole('button', { name: 'Remove' });
      dialog = await openWithKeyboard(page, remove);
      expect(await dialog.getByRole('heading', { name: 'Remove Bea Analyst?' }).isVisible()).toBe(true);
      await pressInDialog(page, dialog, 'Cancel');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
      expect(await userRow.count()).toBe(1);

      dialog = await openWithKeyboard(page, remove);
      await pressInDialog(page, dialog, 'Remove');
      await expect.poll(() => userRow.count()).toBe(0);
      await expect.poll(() => page.getByText('Bea Analyst was removed.').isVisible()).toBe(true);

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('webhook endpoint confirmations', () => {
  test('rotate the secret and remove the endpoint: cancel changes nothing, confirm shows the change', {
    timeout: 300_000,
  }, async ({ service, receiver }) => {
    await buildWeb({ ifStale: true, quiet: true });
    const { account, owner } = await createAccount(service.app.db, { name: 'Hook Co', seats: 5 });
    await setWebhookEndpoint(service.app, account.id, (await receiver([204])).url);

    const browser = await launchChromium({ viewport: { width: 960, height: 1000 }, consoleErrors: true });
    try {
      const { page } = browser;
      await signInAs(page, service.url, owner.email, owner.password);
      await page.waitForURL(/\/calls/);
      await page.goto(`${service.url}/integrations`);
      const panel = page.getByTestId('webhook-endpoint');
      await panel.waitFor();
      const secretShown = page.getByTestId('secret-value');

      // Rotate: Cancel shows no secret; confirming shows the new one.
      const rotate = panel.getByRole('button', { name: 'Rotate secret' });
      let dialog = await openWithKeyboard(page, rotate);
      expect(await dialog.getByRole('heading', { name: 'Rotate the signing secret?' }).isVisible()).toBe(true);
      await pressInDialog(page, dialog, 'Cancel');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
      expect(await secretShown.count()).toBe(0);

      dialog = await openWithKeyboard(page, rotate);
      await pressInDialog(page, dialog, 'Rotate secret');
      await expect.poll(() => secretShown.textContent()).toMatch(/^whsec_/);
      await expect.poll(() => page.getByText('New secret created. Update your receiver now.').isVisible()).toBe(true);

      // Remove: Cancel keeps the endpoint; confirming takes it off the page.
      const remove = panel.getByRole('button', { name: 'Remove', exact: true });
      dialog = await openWithKeyboard(page, remove);
      expect(await dialog.getByRole('heading', { name: 'Remove the webhook?' }).isVisible()).toBe(true);
      await pressInDialog(page, dialog, 'Cancel');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
      expect(await panel.count()).toBe(1);

      dialog = await openWithKeyboard(page, remove);
      await pressInDialog(page, dialog, 'Remove');
      await expect.poll(() => panel.count()).toBe(0);
      await expect.poll(() => page.getByText('Webhook removed.').isVisible()).toBe(true);
      expect(await secretShown.count()).toBe(0);
      expect(await service.app.db.webhookEndpoint.count({ where: { accountId: account.id } })).toBe(0);

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
