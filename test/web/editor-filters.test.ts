// Issue 11, the rest of it in real Chromium: the template editor fits (eight criteria of eleven
// phrases each on about two screens, every phrase in view once a criterion is open) and asks before
// unsaved edits are dropped (sidebar link, back button, tab close); the calls list takes several
// agents, one topic for both template languages, a failed criterion and critical fails, and shows
// the matching line while searching; a user renames themselves; axe finds nothing on the way.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from '../support/harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { criterionResult as result, insertCall } from '../graphql/fixtures.ts';
import { launchChromium, type TestBrowser } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

const AXE = path.resolve('node_modules/axe-core/axe.min.js');

let svc: TestService;
let browser: TestBrowser;
let page: Page;
let owner: { email: string; password: string };
let templateId: string;

const phrases = (k: number) => Array.from({ length: 11 }, (_, i) => `phrase ${k} number ${i}`);

test.beforeAll(async ({ service, seed }) => {
  await buildWeb({ ifStale: true, quiet: true });
  svc = service;
  const seeded = await seed({
    name: 'Contact Center Madrid',
    agents: [{ name: 'Ana García' }, { name: 'Bruno Díaz' }, { name: 'Carla Ruiz' }],
  });
  owner = seeded.owner;
  const accountId = seeded.account.id;
  const [ana, bruno, carla] = seeded.agents as unknown as [{ id: string }, { id: string }, { id: string }];
  const en = await svc.app.db.template.create({
    data: {
      accountId,
      name: 'Support',
      definition: {
        version: 1,
        criteria: Array.from({ length: 8 }, (_, k) => ({
          key: `criterion_${k}`,
          label: `Criterion number ${k}`,
          weight: 3,
          kind: k === 7 ? 'forbidden' : 'phrase',
          critical: k === 7,
          phrases: phrases(k),
        })),
        topics: [{ key: 'billing', label: 'Billing', phrases: ['invoice'] }],
      },
    },
  });
  templateId = en.id;
  await svc.app.db.template.create({
    data: {
      accountId,
      name: 'Soporte',
      definition: {
        version: 1,
        criteria: [{ key: 'criterion_0', label: 'Saluda', weight: 3, kind: 'phrase', phrases: ['hola'] }],
        topics: [{ key: 'billing', label: 'Facturación', phrases: ['factura'] }],
      },
    },
  });
  await svc.app.db.account.update({ where: { id: accountId }, data: { defaultTemplateId: en.id } });
  const segments = [
    { start: 0, end: 3, speaker: 'agent', text: 'Hello, Acme support.', channel: 0 },
    { start: 3, end: 7, speaker: 'customer', text: 'I was charged twice.', channel: 1 },
    { start: 7.5, end: 11, speaker: 'agent', text: 'I will refund the charge today.', channel: 0 },
  ];
  const rows: [{ id: string }, string, string, 'passed' | 'failed', boolean][] = [
    [ana, 'Billing', 'en', 'failed', false],
    [bruno, 'Facturación', 'es', 'passed', true],
    [carla, 'Billing', 'en', 'passed', false],
    [carla, 'Shipping', 'en', 'passed', false],
  ];
  for (const [i, [agent, topic, language, first, critical]] of rows.entries()) {
    await insertCall(
      svc.app.db,
      { accountId, agentId: agent.id, templateId: en.id },
      {
        customerName: `Customer ${i}`,
        topic,
        language,
        segments,
        searchText: 'hello acme support i was charged twice i will refund the charge today',
        score: critical ? 0 : 70,
        criteria: [
          result('criterion_0', 'Criterion number 0', first),
          result('criterion_7', 'Criterion number 7', critical ? 'failed' : 'passed', true),
        ],
      },
    );
  }
  browser = await launchChromium({ viewport: { width: 1366, height: 900 }, bypassCSP: true });
  page = browser.page;
}, 240_000);

test.afterAll(async () => {
  await browser?.close();
});

async function axe(state: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe.run();
    return r.violations;
  })) as { id: string; nodes: { target: string[] }[] }[];
  return violations.map((v) => `${state}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const rowCount = () => page.getByTestId('call-row').count();

describe('template editor, filters and rename (issue 11)', () => {
  test('keeps the template editor compact and asks before dropping unsaved changes', async () => {
    await page.goto(`${svc.url}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL(/\/calls$/);

    // Into the editor from the list (inside the app, so Back is the app's own navigation).
    await page.goto(`${svc.url}/templates`);
    await page.getByRole('link', { name: 'Support', exact: true }).click();
    await page.waitForURL(new RegExp(`/templates/${templateId}$`));
    await page.getByTestId('save-template').waitFor();
    await expect.poll(() => page.getByTestId('criterion-editor').count()).toBe(8);
    // Eight criteria as one-line rows: the page is about two screens, not five thousand pixels.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(2000);
    // Opened (with the keyboard), a criterion shows all eleven phrases without scrolling its box.
    const toggle = page.getByTestId('criterion-editor').nth(2).locator('.crit-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    const box = page.getByTestId('criterion-editor').nth(2).getByTestId('phrases');
    const fit = await box.evaluate((el: HTMLTextAreaElement) => ({
      lines: el.value.split('\n').length,
      overflow: el.scrollHeight - el.clientHeight,
    }));
    expect(fit.lines).toBe(11);
    expect(fit.overflow).toBeLessThanOrEqual(1);
    const problems = await axe('template editor, a criterion open');

    // An unsaved edit: the sidebar asks first; "Cancel" stays with the edit.
    await page.getByLabel('Name', { exact: true }).first().fill('Support (edited)');
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.locator('nav').getByRole('link', { name: 'Calls' }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('unsaved changes');
    expect(page.url()).toContain(`/templates/${templateId}`);
    expect(await page.getByLabel('Name', { exact: true }).first().inputValue()).toBe('Support (edited)');
    // The browser's back button asks too.
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.goBack();
    await expect.poll(() => asked.length).toBe(2);
    await expect.poll(() => page.url()).toContain(`/templates/${templateId}`);
    await page.getByTestId('save-template').waitFor();
    // Closing or reloading the tab: the page asks the browser to confirm.
    expect(
      await page.evaluate(() => {
        const e = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(e);
        return e.defaultPrevented;
      }),
    ).toBe(true);
    // Accepting leaves.
    page.once('dialog', (d) => void d.accept());
    await page.locator('nav').getByRole('link', { name: 'Calls' }).click();
    await page.waitForURL(/\/calls$/);
    expect(problems).toEqual([]);
  }, 120_000);

  test('filters by several agents, one topic in two languages, a failed criterion and critical fails; shows what matched', async () => {
    await page.goto(`${svc.url}/calls`);
    await expect.poll(rowCount).toBe(4);
    await page.getByTestId('f-agent').click();
    await page.getByRole('checkbox', { name: 'Ana García' }).check();
    await page.getByRole('checkbox', { name: 'Bruno Díaz' }).check();
    await expect.poll(rowCount).toBe(2);
    const problems = await axe('calls, agent list open');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('f-agent').getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.getByTestId('f-agent').textContent()).toBe('2 agents');

    await page.getByRole('button', { name: 'More filters' }).click();
    const topics = await page.getByRole('combobox', { name: 'Topic' }).locator('option').allTextContents();
    expect(topics).toContain('Billing / Facturación');
    expect(topics).not.toContain('Facturación');
    // One topic: both languages' calls of the two agents.
    await page.getByRole('combobox', { name: 'Topic' }).selectOption({ label: 'Billing / Facturación' });
    await expect.poll(rowCount).toBe(2);
    await page.getByLabel('Failed criterion').selectOption({ label: 'Criterion number 0' });
    await expect.poll(rowCount).toBe(1);
    await page.getByLabel('Failed criterion').selectOption('');
    await page.getByLabel('Critical fail only').check();
    await expect.poll(rowCount).toBe(1);
    expect(await page.getByTestId('call-row').first().textContent()).toContain('Customer 1');
    await page.getByRole('button', { name: /^Clear \d+ filters?$/ }).click();
    await expect.poll(rowCount).toBe(4);

    // Typing part of a word finds the calls, each with the line that matched under it.
    await page.getByLabel('Search transcripts').fill('refun');
    await expect.poll(() => page.getByTestId('call-snippet').count()).toBe(4);
    const snippet = page.getByTestId('call-snippet').first();
    expect(await snippet.textContent()).toContain('Agent');
    expect(await snippet.locator('mark').first().textContent()).toMatch(/^refun/i);
    problems.push(...(await axe('calls, searching')));
    expect(problems).toEqual([]);
  }, 120_000);

  test('lets a user change their own name', async () => {
    await page.goto(`${svc.url}/settings`);
    const name = page.locator('input[name="display-name"]');
    await expect.poll(() => name.inputValue()).toBe('Owner');
    await name.fill('Marta Gómez');
    await page.getByTestId('save-name').click();
    await page.getByText('Your name is saved.').waitFor();
    // The shell shows the new name at once, and after a reload.
    await page.locator('.user-chip').getByText('Marta Gómez').waitFor();
    await page.reload();
    await expect.poll(() => page.locator('input[name="display-name"]').inputValue()).toBe('Marta Gómez');
    expect(browser.errors).toEqual([]);
  }, 60_000);
});
