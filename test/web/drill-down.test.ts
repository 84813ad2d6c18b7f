// The dashboard's drill-down in Chromium (issue 31.4): every number the dashboard counts (a stat, a
// trend point, a bar, a table cell) opens the calls list, and the list's total is the number; every
// average and share opens the calls it is computed over, and the list's total is their number. The
// seed sits on the edges where the dashboard's SQL and the list's filter could disagree: an account
// 14 hours ahead of the browser (days are the account's), calls just inside and outside the range,
// a transcribed call without a score and a language mismatch (not counted), a score on a band's
// edge, one topic with labels in two templates (the dashboard counts labels), calls without a
// campaign, a critical fail, customers' sentiment, disputes opened and answered today, a scored call
// without a coverage (averaged coverage counts fewer calls than the score) and a call of the previous
// period (an agent's previous score and change open it).
import type { Page } from 'playwright-core';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { launchChromium } from '../support/browser.ts';
import { describe, expect, test } from '../support/harness.ts';

const ZONE = 'Pacific/Kiritimati'; // UTC+14: a browser in UTC sees other days
const crit = (key: string, result: string, critical = false) => ({
  key,
  label: key,
  kind: 'phrase',
  result,
  points: result === 'passed' ? 1 : 0,
  max_points: result === 'na' ? 0 : 1,
  critical,
  evidence: [],
});

/** A day (YYYY-MM-DD) n days from today in the account's zone, and an instant at hh:mm local on it. */
const localDay = (n: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() + n * 86_400_000),
  );
const at = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+14:00`).toISOString();

/** Every count the page shows as a link: where it leads and the number it says. */
async function drillLinks(page: Page, scope = 'main') {
  return page.locator(`${scope} [data-drill]`).evaluateAll((els) =>
    els.map((e) => ({
      href: e.getAttribute('href') ?? '',
      count: Number(e.getAttribute('data-drill')),
      label: e.getAttribute('aria-label') ?? '',
    })),
  );
}

/** Waits until every card of the dashboard has its numbers (each has its own query). */
async function dashboardSettled(page: Page) {
  await expect.poll(() => page.locator('[data-testid="dashboard"][aria-busy]').count()).toBe(0);
}

/** The calls list's total for the page it shows. */
async function listTotal(page: Page): Promise<number> {
  const text = await page.getByTestId('calls-total').textContent({ timeout: 15_000 });
  return Number((text ?? '').replace(/\D/g, ''));
}

describe('dashboard drill-down', () => {
  test('every number opens exactly the calls it counts', { timeout: 400_000 }, async ({ service, db: testDb }) => {
    await buildWeb({ ifStale: true, quiet: true });
    const db = service.app.db;
    const { account, owner } = await createAccount(db, { name: 'Drill Co', seats: 5, timeZone: ZONE });
    const accountId = account.id;
    const anna = await db.agent.create({ data: { accountId, name: 'Anna Smith', nameNormalized: 'annasmith' } });
    const bruno = await db.agent.create({ data: { accountId, name: 'Bruno Díaz', nameNormalized: 'brunodiaz' } });
    const campaign = await db.campaign.create({ data: { accountId, name: 'Renewals', nameNormalized: 'renewals' } });
    // One topic, two languages: "Billing" and "Facturación" share the key billing.
    for (const [name, label] of [
      ['EN', 'Billing'],
      ['ES', 'Facturación'],
    ] as const)
      await db.template.create({
        data: {
          accountId,
          name,
          definition: {
            version: 1,
            criteria: [{ key: 'greeting', label: 'Greets', weight: 1, kind: 'phrase', phrases: ['hi'] }],
            topics: [{ key: 'billing', label, phrases: ['invoice'] }],
          },
        },
      });
    const first = localDay(-29);
    const yesterday = localDay(-1);
    const calls: [string, string, string, number | null, object[], string | null, object][] = [
      // agent, started at, status, score, criteria, topic, extra columns
      [
        anna.id,
        at(first, '00:10'),
        'analyzed',
        80,
        [crit('greeting', 'passed')],
        'Billing',
        { campaign_id: campaign.id },
      ],
      [anna.id, at(yesterday, '00:30'), 'analyzed', 79.95, [crit('greeting', 'failed')], 'Facturación', {}],
      [
        anna.id,
        at(yesterday, '23:50'),
        'analyzed',
        40,
        [crit('greeting', 'failed'), crit('no_insults', 'failed', true)],
        'Billing',
        { customer_sentiment: 0.4, customer_sentiment_trend: 0.3 },
      ],
      [
        bruno.id,
        at(yesterday, '12:00'),
        'analyzed',
        100,
        [crit('greeting', 'na')],
        null,
        { customer_sentiment: -0.2, customer_sentiment_trend: -0.5 },
      ],
      // Not counted: the day before the range, no score, a language mismatch.
      [bruno.id, at(localDay(-30), '23:50'), 'analyzed', 60, [crit('greeting', 'failed')], 'Billing', {}],
      [bruno.id, at(yesterday, '10:00'), 'transcribed', null, [], null, {}],
      [
        bruno.id,
        at(yesterday, '11:00'),
        'analyzed',
        90,
        [crit('greeting', 'failed')],
        'Billing',
        { language_mismatch: true },
      ],
    ];
    const ids: string[] = [];
    for (const [agent, started, status, score, criteria, topic, extra] of calls) {
      const cols = Object.keys(extra);
      const [row] = await testDb.sql(
        `INSERT INTO calls (id, account_id, source, status, agent_id, started_at, language, topic, score, coverage, criteria,
                            file_name, file_size, file_sha256, content_type, storage_key, reserved_minutes, period
                            ${cols.map((c) => `, ${c}`).join('')})
         VALUES (gen_random_uuid(), $1, 'api', $2, $3, $4, 'en', $5, $6, 1, $7::jsonb, 'f.wav', 1, 'x', 'audio/wav', 'k', 1,
                 '2024-01' ${cols.map((_, i) => `, $${i + 8}`).join('')})
         RETURNING id`,
        [accountId, status, agent, started, topic, score, JSON.stringify(criteria), ...Object.values(extra)],
      );
      ids.push(row.id);
    }
    // A call scored before coverage existed: scored, but not in the average coverage.
    await testDb.sql('UPDATE calls SET coverage = NULL WHERE id = $1', [ids[0]]);
    // Disputes opened today: one still open, one accepted today.
    const now = new Date();
    await db.dispute.create({ data: { accountId, callId: ids[1]!, criterionKey: 'greeting', comment: 'I greeted' } });
    await db.dispute.create({
      data: {
        accountId,
        callId: ids[2]!,
        criterionKey: 'greeting',
        comment: 'I did',
        status: 'accepted',
        resolvedAt: now,
        reply: 'Yes',
      },
    });

    const browser = await launchChromium({ viewport: { width: 1280, height: 1400 }, consoleErrors: true });
    try {
      const { page } = browser;
      await page.goto(`${service.url}/signin?next=/dashboard`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard$/);
      // The four counted calls; the range's first local day starts 14 hours before the browser's.
      await expect.poll(() => page.getByTestId('dashboard-calls').textContent()).toBe('4');
      await expect.poll(() => page.getByTestId('dashboard-disputes').isVisible()).toBe(true);

      // A real click on the first number: the list opens on the calls it counts.
      await page.getByTestId('dashboard-calls').getByRole('link').click();
      await page.waitForURL(/\/calls\?/);
      expect(await listTotal(page)).toBe(4);
      await expect.poll(() => page.getByTestId('drill-down-note').isVisible()).toBe(true);
      await page.goBack();
      await page.waitForURL(/\/dashboard$/);
      await expect.poll(() => page.getByTestId('dashboard-calls').textContent()).toBe('4');
      await dashboardSettled(page);

      const links = await drillLinks(page);
      // Averages and shares open the calls they are computed over: the average score its four scored
      // calls (the calls figure), a pass rate its passed calls (its name says out of how many), the
      // share that ended better its improved calls out of the two with a sentiment trend.
      const figure = (re: RegExp) => links.filter((l) => re.test(l.label));
      const average = await drillLinks(page, '[data-testid="dashboard-average"]');
      expect(average).toHaveLength(1);
      expect(average[0]!.count).toBe(4);
      expect(average[0]!.label).toMatch(/open the 4 calls it is computed over/);
      expect(figure(/computed over — the scored calls of Anna Smith$/).map((l) => l.count)).toEqual([3]);
      expect(figure(/computed over — “[^”]+” passed, out of 3 passed or failed/).map((l) => l.count)).toEqual([1]);
      expect(figure(/ended better, out of 2 calls/).map((l) => l.count)).toEqual([1, 1]);
      expect(figure(/ended worse, out of 2 calls/).map((l) => l.count)).toEqual([1, 1]);
      // The average coverage opens the scored calls that have one (three of the four); Anna's, two of her three.
      const coverage = await drillLinks(page, '[data-testid="dashboard-coverage"]');
      expect(coverage.map((l) => l.count)).toEqual([3]);
      expect(figure(/the scored calls of Anna Smith with a coverage/).map((l) => l.count)).toEqual([2]);
      // Bruno's previous score opens his call of the previous period; his change, that one and this period's.
      expect(figure(/the scored calls of Bruno Díaz in the previous period/).map((l) => l.count)).toEqual([1]);
      expect(figure(/the scored calls of Bruno Díaz in this period and the previous one/).map((l) => l.count)).toEqual([
        2,
      ]);
      // An agent's average sentiment opens their calls with one.
      expect(figure(/the calls of Anna Smith with a customer sentiment/).map((l) => l.count)).toEqual([1]);
      // Every chart and table has its numbers as links: stats, trend, agents, campaigns, criteria,
      // distribution, topics (bars and legend), sentiment, disputes (bars and table).
      const kinds = new Set(links.map((l) => [...new URLSearchParams(l.href.split('?')[1]).keys()].join(',')));
      expect(links.length).toBeGreaterThan(25);
      expect(kinds.size).toBeGreaterThan(8);
      const wrong: string[] = [];
      for (const link of links) {
        await page.goto(`${service.url}${link.href}`);
        const total = await listTotal(page);
        if (total !== link.count)
          wrong.push(`${link.label}: ${link.count} on the dashboard, ${total} listed (${link.href})`);
        // The list's CSV export holds the same calls.
        const csv = await page.getByTestId('export-csv').getAttribute('href');
        const rows = await page.evaluate(async (u) => {
          const text = await (await fetch(u as string)).text();
          return text.split(/\r?\n/).filter((l) => /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(l)).length;
        }, csv);
        if (rows !== link.count) wrong.push(`${link.label}: ${link.count} on the dashboard, ${rows} exported (${csv})`);
      }
      expect(wrong).toEqual([]);

      // Weeks and months move the buckets; the trend's points still open their own calls.
      for (const interval of ['WEEK', 'MONTH']) {
        await page.goto(`${service.url}/dashboard`);
        await page.locator('#d-interval').selectOption(interval);
        await dashboardSettled(page);
        await expect.poll(() => page.locator('main svg [data-drill]').count()).toBeGreaterThan(0);
        for (const link of await drillLinks(page, 'main svg')) {
          await page.goto(`${service.url}${link.href}`);
          expect(await listTotal(page), `${interval} ${link.label}`).toBe(link.count);
        }
      }
      // Topics beyond the five the chart names: their "other topics" bar and legend open those calls.
      for (const topic of ['Returns', 'Shipping', 'Upgrade', 'Cancel', 'Outage'])
        await testDb.sql(
          `INSERT INTO calls (id, account_id, source, status, agent_id, started_at, language, topic, score, coverage, criteria,
                              file_name, file_size, file_sha256, content_type, storage_key, reserved_minutes, period)
           VALUES (gen_random_uuid(), $1, 'api', 'analyzed', $2, $3, 'en', $4, 70, 1, '[]'::jsonb, 'f.wav', 1, 'x',
                   'audio/wav', 'k', 1, '2024-01')`,
          [accountId, bruno.id, at(yesterday, '09:00'), topic],
        );
      await page.goto(`${service.url}/dashboard`);
      await expect.poll(() => page.getByTestId('dashboard-calls').textContent()).toBe('9');
      // The topics chart has its own query, which can answer after the calls figure.
      await dashboardSettled(page);
      const others = (await drillLinks(page)).filter((l) => l.href.includes('otherTopics='));
      // Seven labels, five named: the legend's total and yesterday's bar, two calls each.
      expect(others.map((l) => l.count)).toEqual([2, 2]);
      for (const link of others) {
        await page.goto(`${service.url}${link.href}`);
        expect(await listTotal(page), link.label).toBe(link.count);
      }
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
