// The web app end to end, as a manager would use it: real server (api + worker), real Chromium,
// real speech transcribed by the worker. Saves a screenshot of every page to test-results/screenshots.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, testWithService } from '../support/harness.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { convert, makeStereoCall, type Turn } from '../fixtures/audio.ts';
import { launchChromium, type TestBrowser } from '../support/browser.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { startReceiver } from '../support/receiver.ts';
import type { TestService } from '../support/service.ts';

const SHOTS = path.resolve('test-results/screenshots');

const CALL: Turn[] = [
  { speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling Acme support. My name is Anna.' },
  { speaker: 'customer', voice: 'en', text: 'Hi. I have a problem with my invoice. I was charged twice this month.' },
  { speaker: 'agent', voice: 'en', text: 'I am very sorry about that. I will refund the extra charge today.' },
  { speaker: 'customer', voice: 'en', text: 'Great, thank you very much. Goodbye.' },
];

const test = testWithService({ worker: true });

let svc: TestService;
let browser: TestBrowser;
let page: Page;
let owner: { email: string; password: string };
let receiver: Awaited<ReturnType<typeof startReceiver>>;

async function shot(name: string) {
  // Not 'networkidle': the live-updates stream keeps a request open for as long as the page lives.
  await page
    .waitForFunction(() => !document.querySelector('.skeleton, .loading-page'), null, { timeout: 10_000 })
    .catch(() => {});
  await page.waitForTimeout(300);
  // A viewport as tall as the page (rather than fullPage) keeps the sticky sidebar where a person sees it.
  const height = await page.evaluate(() => Math.max(900, Math.min(4000, document.documentElement.scrollHeight)));
  await page.setViewportSize({ width: 1440, height });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  await page.setViewportSize({ width: 1440, height: 900 });
}

const dialog = () => page.locator('dialog[open]');

/** RFC 4180 rows (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

test.beforeAll(async ({ service }) => {
  mkdirSync(SHOTS, { recursive: true });
  await buildWeb({ ifStale: true, quiet: true });
  svc = service;
  ({ owner } = await createAccount(svc.app.db, {
    name: 'Acme Support',
    minutes: 600,
    seats: 5,
    timeZone: 'Europe/Madrid',
  }));
  receiver = await startReceiver();
  // Issue 16: the app runs under a strict CSP; any securitypolicyviolation on any page fails the suite.
  browser = await launchChromium({ acceptDownloads: true, consoleErrors: true, reportCsp: true });
  page = browser.page;
}, 240_000);

test.afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

describe('web app', () => {
  test('serves the app for client routes and keeps API paths for the API', async () => {
    const html = await fetch(`${svc.url}/calls/0b7c7f53-0000-4000-8000-000000000000`);
    expect(html.status).toBe(200);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const body = await html.text();
    expect(body).toContain('<div id="root">');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(body)?.[1];
    expect(asset).toBeTruthy();
    const js = await fetch(`${svc.url}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${svc.url}/api/nothing-here`)).status).toBe(404);
    expect((await fetch(`${svc.url}/assets/missing-chunk.js`)).status).toBe(404);
  });

  test('a manager sets up the account, watches a call arrive live, reviews it, exports, and revokes the key', async () => {
    // Sign in (a wrong password first: the error is in words).
    await page.goto(`${svc.url}/calls`);
    await page.waitForURL(/\/signin/);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong email or password');
    await shot('signin');
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/calls$/);
    await page.getByText('No calls yet').waitFor();
    await page.getByText('No template yet: calls are transcribed but not analyzed').waitFor();
    await shot('calls-empty');

    // An agent.
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByTestId('add-agent').click();
    await dialog().getByLabel('Name').fill('Anna Smith');
    await dialog().getByLabel('Telephony code').fill('AG-07');
    await dialog().getByRole('button', { name: 'Add agent' }).click();
    await page.getByTestId('agent-row').filter({ hasText: 'Anna Smith' }).waitFor();
    await expect.poll(() => page.getByTestId('seats').textContent()).toBe('1 / 5');
    await shot('team');

    // A template: the starter criteria plus one of our own, then made the default.
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByText('No template yet: calls are transcribed but not analyzed').first().waitFor();
    await shot('templates-empty');
    await page.getByTestId('new-template').click();
    await page.getByLabel('Name', { exact: true }).fill('Support QA');
    await page.getByTestId('add-phrase').click();
    await page.locator('input[name="criterion-2-label"]').fill('Apologises');
    await page.locator('textarea[name="criterion-2-phrases"]').fill('sorry');
    await shot('template-editor');
    await page.getByTestId('save-template').click();
    await page.waitForURL(/\/templates\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Make default' }).click();
    await page.getByText('is now the default template').waitFor();

    // A campaign in English that uses it.
    await page.getByRole('link', { name: 'Campaigns' }).click();
    await page.getByTestId('new-campaign').first().click();
    await dialog().getByLabel('Name').fill('Support');
    await dialog().getByLabel('Language').selectOption('en');
    await dialog().getByLabel('Template').selectOption({ label: 'Support QA' });
    await dialog().getByRole('button', { name: 'Create campaign' }).click();
    await page.getByTestId('campaign-row').filter({ hasText: 'Support' }).waitFor();
    await shot('campaigns');

    // An API key, shown once.
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByTestId('create-api-key').click();
    await dialog().getByLabel('Name').fill('Asterisk E2E');
    await dialog().getByRole('button', { name: 'Create API key' }).click();
    const key = (await dialog().getByTestId('secret-value').textContent())!.trim();
    expect(key).toMatch(/^esk_/);
    await shot('api-key-created');
    await dialog().getByTestId('key-done').click();
    await page.getByTestId('api-key-row').filter({ hasText: 'Asterisk E2E' }).waitFor();

    // The webhook: the signing secret is shown when created; a test event reaches the receiver.
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await expect.poll(() => page.getByTestId('secret-value').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await receiver.waitFor(1, 30_000);
    expect(JSON.parse(receiver.received[0]!.body).type).toBe('webhook.test');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.getByTestId('delivery-row').filter({ hasText: 'Delivered' }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await shot('integrations');

    // A call posted over REST appears and moves to "analyzed" in the open list, without a reload.
    await page.getByRole('link', { name: 'Calls' }).click();
    await page.getByTestId('count-analyzed').filter({ hasText: '0' }).waitFor();
    await page.evaluate(() => ((window as any).__noReload = true));
    const wav = await makeStereoCall(CALL);
    const posted = await postCall(svc.url, {
      key,
      fields: {
        agent_code: 'AG-07',
        campaign: 'support',
        external_id: 'e2e-1',
        customer_phone: '+34600111222',
        direction: 'inbound',
      },
      file: { path: wav, name: 'support-call.wav' },
    });
    expect(posted.status).toBe(201);
    const callId: string = posted.body.id;
    const row = page.locator(`[data-testid="call-row"][data-call-id="${callId}"]`);
    await row.and(page.locator('[data-status="ANALYZED"]')).waitFor({ timeout: 150_000 });
    expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
    await expect.poll(() => page.getByTestId('count-analyzed').textContent()).toBe('1');
    await shot('calls');

    // Filters live in the URL; the transcript search finds the call, a non-matching one does not.
    await page.getByLabel('Search transcripts').fill('invoice');
    await page.waitForURL(/q=invoice/);
    await row.waitFor();
    await page.getByLabel('Search transcripts').fill('router');
    await page.waitForURL(/q=router/);
    await page.getByText('No calls match these filters').waitFor();
    await shot('calls-filtered-empty');
    await page.getByRole('button', { name: /Clear/ }).first().click();
    await row.waitFor();

    // CSV export of the current filter.
    const href = await page.getByTestId('export-csv').getAttribute('href');
    expect(href).toMatch(/^\/api\/calls\/export\.csv\?/);
    const csv = await page.request.get(`${svc.url}${href}`);
    expect(csv.status()).toBe(200);
    const rows = parseCsv((await csv.text()).replace(/^\uFEFF/, ''));
    expect(rows).toHaveLength(2);
    const header = rows[0]!;
    const rec = Object.fromEntries(header.map((h, i) => [h, rows[1]![i]]));
    expect(rec).toMatchObject({
      id: callId,
      external_id: 'e2e-1',
      agent: 'Anna Smith',
      agent_code: 'AG-07',
      campaign: 'Support',
      status: 'analyzed',
      score: '100',
    });

    // The call: audio, transcript synced with it, criteria with evidence.
    await row.click();
    await page.waitForURL(new RegExp(`/calls/${callId}`));
    const segments = page.getByTestId('segment');
    await segments.first().waitFor();
    expect(await segments.count()).toBeGreaterThanOrEqual(3);
    await page.waitForFunction(() => {
      const a = document.querySelector('audio');
      return !!a && a.readyState >= 1 && Number.isFinite(a.duration) && a.duration > 5;
    });
    const third = segments.nth(2);
    const start = Number(await third.getAttribute('data-start'));
    expect(start).toBeGreaterThan(3);
    await third.click();
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')!.currentTime), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(start - 0.05);
    await expect.poll(() => third.getAttribute('aria-current')).toBe('true');
    await page.evaluate(() => document.querySelector('audio')!.pause());
    const results = Object.fromEntries(
      await page
        .getByTestId('criterion')
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-key'), e.getAttribute('data-result')])),
    );
    expect(results).toEqual({ greets_the_customer: 'PASSED', no_offensive_language: 'PASSED', apologises: 'PASSED' });
    expect(await page.getByTestId('score').textContent()).toBe('100');
    // Evidence jumps to its moment.
    const evidence = page.getByTestId('evidence').first();
    await evidence.click();
    const t0 = await page.evaluate(() => document.querySelector('audio')!.currentTime);
    expect(t0).toBeLessThan(start);
    await page.evaluate(() => document.querySelector('audio')!.pause());
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('call-detail');

    // Its call.analyzed webhook was delivered; "send again" redelivers it.
    await receiver.waitFor(2, 30_000);
    const analyzedEvents = () => receiver.received.filter((r) => JSON.parse(r.body).type === 'call.analyzed').length;
    expect(analyzedEvents()).toBe(1);
    await page.reload();
    await page.getByRole('button', { name: 'Send again' }).click();
    await page.getByText('Delivered (HTTP 200).').waitFor();
    expect(analyzedEvents()).toBe(2);

    // Template preview against this call, before saving anything.
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('link', { name: 'Support QA' }).click();
    await page.getByTestId('run-preview').click();
    await page.getByTestId('preview-result').waitFor();
    expect(await page.getByTestId('preview-result').locator('.score').textContent()).toBe('100');
    await shot('template-preview');

    // Revoking the key in the UI refuses the next REST call.
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByTestId('api-key-row').filter({ hasText: 'Asterisk E2E' }).getByTestId('revoke-key').click();
    await dialog().getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('api-key-row').filter({ hasText: 'Asterisk E2E' }).getByText('Revoked').waitFor();
    // A small body: the server answers 401 before reading it and closes, which a large upload would see as EPIPE.
    const refused = await postCall(svc.url, {
      key,
      fields: { agent_code: 'AG-07', external_id: 'e2e-2' },
      file: { blob: wavBlob(8000), name: 'again.wav' },
    });
    expect(refused.body.error.code).toBe('unauthorized');
    expect(refused.status).toBe(401);

    // The remaining pages.
    // Manual upload of several recordings, each with its own progress bar and result.
    await page.getByRole('link', { name: 'Upload', exact: true }).click();
    await page.getByLabel('Agent').selectOption({ label: 'Anna Smith · AG-07' });
    await page.getByTestId('file-input').setInputFiles([
      { name: 'first.wav', mimeType: 'audio/wav', buffer: await readFile(wav) },
      { name: 'second.mp3', mimeType: 'audio/mpeg', buffer: await readFile(await convert(wav, 'mp3')) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not audio') },
    ]);
    await page.getByRole('button', { name: 'Upload 2' }).click();
    await expect
      .poll(() => page.locator('[data-testid="upload-item"][data-state="done"]').count(), { timeout: 60_000 })
      .toBe(2);
    expect(await page.locator('[data-testid="upload-item"][data-state="failed"]').textContent()).toContain(
      'does not look like an audio file',
    );
    await shot('upload');
    await page.getByRole('link', { name: 'Open call' }).first().click();
    await page.waitForURL(/\/calls\/[0-9a-f-]{36}$/);

    for (const [link, name] of [
      ['Usage', 'usage'],
      ['Templates', 'templates'],
    ] as const) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.locator('h1').filter({ hasText: link }).waitFor();
      await shot(name);
    }
    await page.goto(`${svc.url}/calls?view=in_progress`);
    // The two uploads are transcribed by the real model meanwhile: as long as the first call above.
    await page.getByText('Nothing in progress').waitFor({ timeout: 150_000 });
    await shot('calls-in-progress-empty');
    await page.goto(`${svc.url}/settings`);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    // Admins set which stereo channel is the agent; the setting is saved on the account.
    await page.getByLabel('Agent channel on stereo recordings').selectOption('RIGHT');
    // …and how the two voices of a mono recording are told apart.
    await page.getByLabel('Speakers on mono recordings').selectOption('GREETING');
    await page.getByRole('region', { name: 'Account' }).getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Account settings saved.').waitFor();
    await expect
      .poll(async () => {
        const { account } = await svc.app.db.user.findUniqueOrThrow({
          where: { email: owner.email },
          select: { account: { select: { agentChannel: true, monoSpeakers: true } } },
        });
        return [account.agentChannel, account.monoSpeakers];
      })
      .toEqual(['right', 'greeting']);
    await shot('settings');

    // Spanish: the switch changes every text and is remembered.
    await page.getByRole('button', { name: 'ES' }).first().click();
    await page.getByRole('heading', { name: 'Cambiar contraseña' }).waitFor();
    await page.getByRole('link', { name: 'Llamadas' }).click();
    await page.getByTestId('count-analyzed').waitFor();
    await shot('calls-es');
    await page.goto(`${svc.url}/calls/${callId}`);
    await page.getByText('Puntuación de calidad').waitFor();
    await shot('call-detail-es');
    await page.getByRole('button', { name: 'EN' }).first().click();

    // An invitation: link created in the UI, accepted after signing out.
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('button', { name: 'Invite someone' }).click();
    await dialog().getByLabel('Email').fill('maria@acme.test');
    await dialog().getByLabel('Role').selectOption('ANALYST');
    await dialog().getByRole('button', { name: 'Create invitation' }).click();
    const link = (await dialog().getByTestId('secret-value').textContent())!.trim();
    expect(link).toMatch(/\/invite\//);
    await dialog().getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    await page.goto(`${svc.url}${new URL(link).pathname}`);
    await page.getByLabel('Your name').fill('María López');
    await page.getByLabel('Password', { exact: true }).fill('a-long-password-1');
    await page.getByLabel('Repeat the password').fill('a-long-password-1');
    await shot('invite');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL(/\/calls/);
    await page.getByText('María López').waitFor();

    expect(browser.errors).toEqual([]);
  }, 300_000);

  test('ran every page above under its Content-Security-Policy with zero violations', async () => {
    const html = await fetch(`${svc.url}/calls`);
    expect(html.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(html.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(browser.cspViolations).toEqual([]);
  });
});
