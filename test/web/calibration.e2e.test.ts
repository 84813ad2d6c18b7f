// Calibration and machine agreement in Chromium (issue 31.1–31.2), at 960 px: a manager starts a
// calibration of 5 calls with 3 graders and a benchmark; each grader answers blind (one of them
// with the keyboard alone); the manager reads each grader's alignment and each criterion's
// agreement, the machine included, applies the benchmark, and the agreement report names the
// criterion people change most and leads to exactly those calls. Axe finds nothing on the way.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { insertCall } from '../graphql/fixtures.ts';
import { launchChromium, signInAs } from '../support/browser.ts';
import { describe, expect, test } from '../support/harness.ts';

const PASSWORD = 'calibration-password-1234';
const AXE = path.resolve('node_modules/axe-core/axe.min.js');
const DEFINITION = {
  version: 1,
  criteria: [
    { key: 'greeting', label: 'Greets the customer', weight: 5, kind: 'phrase', phrases: ['hello'] },
    { key: 'closing', label: 'Offers more help', weight: 5, kind: 'phrase', phrases: ['anything else'] },
  ],
  topics: [],
};
type O = 'P' | 'F';
const crit = (key: string, label: string, o: O) => ({
  key,
  label,
  kind: 'phrase',
  result: o === 'P' ? 'passed' : 'failed',
  points: o === 'P' ? 5 : 0,
  max_points: 5,
  critical: false,
  evidence: [],
});
// Per call: [greeting, closing]. The machine fails greeting on calls 2 and 5 and closing on call 4;
// the benchmark passes everything; Ana agrees with the benchmark, Bea fails closing on call 4,
// Carl agrees with the machine on greeting.
const MACHINE: [O, O][] = [
  ['P', 'P'],
  ['F', 'P'],
  ['P', 'P'],
  ['P', 'F'],
  ['F', 'P'],
];
const ANSWERS: Record<string, [O, O][]> = {
  Ana: MACHINE.map(() => ['P', 'P']),
  Bea: MACHINE.map((_, i) => ['P', i === 3 ? 'F' : 'P']),
  Carl: MACHINE.map(([g]) => [g, 'P']),
  Dora: MACHINE.map(() => ['P', 'P']),
};

async function axe(page: Page, state: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe.run();
    return r.violations;
  })) as { id: string; nodes: { target: string[] }[] }[];
  return violations.map((v) => `${state}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('calibration journey', () => {
  test('5 calls, 3 graders and a benchmark: blind answers, alignment and agreement, the benchmark applied, the most-changed criterion and its calls', async ({
    service,
  }) => {
    await buildWeb({ ifStale: true, quiet: true });
    const db = service.app.db;
    const { account, owner } = await createAccount(db, { name: 'Acme', seats: 10, timeZone: 'UTC' });
    const accountId = account.id;
    const agent = await db.agent.create({ data: { accountId, name: 'Anna Smith', nameNormalized: 'annasmith' } });
    const template = await db.template.create({ data: { accountId, name: 'Support', definition: DEFINITION } });
    const passwordHash = await hashPassword(PASSWORD);
    const emails: Record<string, string> = {};
    for (const [name, role] of [
      ['Ana', 'analyst'],
      ['Bea', 'analyst'],
      ['Carl', 'analyst'],
      ['Dora', 'admin'],
    ] as const) {
      emails[name] = `${name.toLowerCase()}@acme.example`;
      await db.user.create({ data: { accountId, email: emails[name]!, name, role, passwordHash } });
    }
    const startedAt = (i: number) => new Date(Date.now() - (i + 1) * 3_600_000);
    const callIds: string[] = [];
    for (const [i, [g, c]] of MACHINE.entries()) {
      const call = await insertCall(
        db,
        { accountId, agentId: agent.id, templateId: template.id },
        {
          startedAt: startedAt(i),
          score: (g === 'P' ? 50 : 0) + (c === 'P' ? 50 : 0),
          criteria: [crit('greeting', 'Greets the customer', g), crit('closing', 'Offers more help', c)],
        },
      );
      callIds.push(call.id);
    }

    const browser = await launchChromium({
      viewport: { width: 960, height: 1000 },
      bypassCSP: true,
      consoleErrors: true,
    });
    const { page, context } = browser;
    const violations: string[] = [];
    try {
      const signIn = async (email: string, password: string) => {
        await context.clearCookies();
        await signInAs(page, service.url, email, password);
        await page.waitForURL(/\/calls$/);
      };

      // The manager starts the session from the nav.
      await signIn(owner.email, owner.password);
      await page.getByRole('link', { name: 'Calibration' }).click();
      await page.getByRole('button', { name: 'New calibration' }).click();
      await page.getByLabel('Name', { exact: true }).fill('March calibration');
      const pick = page.getByTestId('calibration-pick');
      await expect.poll(() => pick.getByRole('checkbox').count()).toBe(5);
      for (const box of await pick.getByRole('checkbox').all()) await box.check();
      const graders = page.getByTestId('calibration-graders');
      for (const name of ['Ana', 'Bea', 'Carl']) await graders.getByLabel(name, { exact: true }).check();
      await page.getByLabel('Benchmark grader').selectOption({ label: 'Dora' });
      violations.push(...(await axe(page, 'new calibration')));
      expect(await fitsWidth(page)).toBe(true);
      await page.getByRole('button', { name: 'Start calibration' }).click();
      await page.waitForURL(/\/calibration\/[0-9a-f-]{36}$/);
      const sessionUrl = page.url();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/March calibration/);
      // The manager does not grade: no answer forms, no results yet.
      await expect.poll(() => page.getByText(/Graders are answering/).count()).toBe(1);
      expect(await page.getByTestId('calibration-call').count()).toBe(0);

      // Each grader answers blind; Ana uses only the keyboard.
      for (const name of ['Ana', 'Bea', 'Carl', 'Dora']) {
        await signIn(emails[name]!, PASSWORD);
        await page.getByRole('link', { name: 'Calibration' }).click();
        await page.getByRole('link', { name: 'March calibration' }).click();
        await expect.poll(() => page.getByTestId('calibration-call').count()).toBe(5);
        // Blind: neither the machine's verdicts nor a score anywhere on the page.
        const text = (await page.locator('main').textContent()) ?? '';
        expect(text).not.toMatch(/Machine|Score/);
        if (name === 'Ana') violations.push(...(await axe(page, 'grading')));
        for (const [i, [g, c]] of ANSWERS[name]!.entries()) {
          const section = page.getByTestId('calibration-call').nth(i);
          const label = (o: O) => (o === 'P' ? 'Passed' : 'Failed');
          if (name === 'Ana') {
            // Tab reaches each radio group; arrows move within it (Passed is first), Space picks.
            await section.getByRole('group', { name: 'Greets the customer' }).getByLabel(label(g)).focus();
            await page.keyboard.press('Space');
            await page.keyboard.press('Tab');
            await page.keyboard.press('Space');
            await page.keyboard.press('Tab');
            await page.keyboard.press('Enter');
          } else {
            await section.getByRole('group', { name: 'Greets the customer' }).getByLabel(label(g)).check();
            await section.getByRole('group', { name: 'Offers more help' }).getByLabel(label(c)).check();
            await section.getByRole('button', { name: `Save answers for call ${i + 1}` }).click();
          }
          // The very last answer closes the session (the forms give way to the results).
          if (name !== 'Dora' || i < 4)
            await expect.poll(() => section.getByText('Answered', { exact: true }).count()).toBe(1);
        }
      }
      // The last answer closed the session: the results are there for the benchmark grader too.
      await expect.poll(() => page.getByTestId('calibration-alignment').count()).toBe(1);

      // The manager reads alignment and agreement.
      await signIn(owner.email, owner.password);
      await page.goto(sessionUrl);
      const alignment = page.getByTestId('calibration-alignment');
      await expect.poll(() => alignment.locator('tbody tr').count()).toBe(4);
      const row = async (name: string) =>
        await alignment
          .locator('tbody tr', { has: page.getByRole('rowheader', { name, exact: true }) })
          .locator('td')
          .allTextContents();
      expect(await row('Ana')).toEqual(['10', '100% (10 of 10)', '100% (10 of 10)']);
      expect(await row('Bea')).toEqual(['10', '90% (9 of 10)', '90% (9 of 10)']);
      expect(await row('Carl')).toEqual(['10', '80% (8 of 10)', '80% (8 of 10)']);
      expect(await row('Machine')).toEqual(['10', '70% (7 of 10)', '70% (7 of 10)']);
      const agreement = page.getByTestId('calibration-agreement');
      const crow = async (label: string) =>
        agreement
          .locator('tbody tr', { has: page.getByRole('rowheader', { name: label }) })
          .locator('td')
          .allTextContents();
      // Worked by hand in docs/guides/calibration.md: greeting κ = −8/52, with the machine 1/6.
      expect(await crow('Greets the customer')).toEqual(['5', '60%', '-0.15', '60%', '0.17']);
      expect(await crow('Offers more help')).toEqual(['5', '80%', '-0.07', '80%', '0.26']);
      expect(await page.getByText(/Fleiss’ kappa: agreement beyond what chance would give/).count()).toBe(1);
      violations.push(...(await axe(page, 'results')));
      expect(await fitsWidth(page)).toBe(true);
      // No call changed yet.
      const scores = async () =>
        (await db.call.findMany({ where: { id: { in: callIds } }, orderBy: { startedAt: 'desc' } })).map(
          (c) => c.score,
        );
      expect(await scores()).toEqual([100, 50, 100, 50, 50]);

      // Applying the benchmark overrides greeting on calls 2 and 5 and closing on call 4.
      await page.getByRole('button', { name: 'Apply the benchmark’s answers' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Apply the benchmark’s answers' }).click();
      await expect.poll(() => page.getByText(/were applied to the calls/).count()).toBe(1);
      expect(await scores()).toEqual([100, 100, 100, 100, 100]);

      // The agreement report names the most-changed criterion and leads to its calls.
      await page.getByRole('link', { name: 'Machine agreement' }).click();
      await expect
        .poll(() => page.getByTestId('agreement-most').textContent())
        .toMatch(/People change “Greets the customer” most: 2 of 5 checks changed\./);
      const report = page.getByTestId('agreement-table');
      expect(
        await report
          .locator('tbody tr', { has: page.getByRole('rowheader', { name: 'Greets the customer' }) })
          .locator('td')
          .allTextContents(),
      ).toEqual(['5', '3', '2', '0', '0', '60% Below 80%']);
      // The criterion's name opens its checked calls.
      expect(await report.getByRole('link', { name: 'Calls of “Greets the customer”' }).count()).toBe(1);
      violations.push(...(await axe(page, 'agreement')));
      expect(await fitsWidth(page)).toBe(true);
      await page.getByRole('link', { name: 'Changed calls of “Greets the customer”' }).click();
      await page.waitForURL(/\/calls\?.*checked=greeting/);
      await expect.poll(() => page.getByTestId('call-row').count()).toBe(2);
      await expect.poll(() => page.getByTestId('checked-filter').textContent()).toMatch(/Greets the customer|greeting/);

      // Flagged on the dashboard (greeting at 60% is below 80%; closing at 80% is not).
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await expect
        .poll(() => page.getByTestId('machine-agreement-flag').textContent())
        .toMatch(/Greets the customer \(60%\)/);
      expect(await page.getByTestId('machine-agreement-flag').textContent()).not.toMatch(/Offers more help/);

      // And in the template editor, for the template's criteria.
      await page.goto(`${service.url}/templates/${template.id}`);
      await expect
        .poll(() => page.getByTestId('machine-agreement-flag').textContent())
        .toMatch(/Greets the customer \(60%\)/);

      // Spanish.
      await page.goto(`${service.url}/agreement`);
      await page.getByRole('group', { name: 'Language', exact: true }).getByRole('button', { name: 'ES' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Acuerdo con la máquina');
      await page.goto(sessionUrl);
      await expect.poll(() => page.getByText('Alineación de los evaluadores').count()).toBe(1);

      expect(violations).toEqual([]);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 300_000);
});
