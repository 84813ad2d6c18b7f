// Issue 14's "done when" on the call page, in real Chromium against the real service: a call whose
// card number was redacted shows the marked placeholder where it was said and says the recording was
// redacted; the customer's sentiment shows on the call; a mono call whose two voices were separated
// reads as agent and customer turns with a talk ratio. The calls are analyzed by the real analysis
// task (what the worker runs); what the audio steps write (redactions, diarization) is stored as
// they store it. The audio and speech parts are covered end to end in test/pipeline/redaction.test.ts,
// test/pipeline/sentiment.test.ts and test/pipeline/mono-speakers.test.ts.
import type { JobHelpers } from 'graphile-worker';
import type { Page } from 'playwright-core';
import { describe, expect, test } from '../support/harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { createAnalyzeTask } from '../../workers/analyze.ts';
import { launchChromium, type TestBrowser } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

const helpers = {
  logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
  job: { attempts: 1, max_attempts: 3 },
} as unknown as JobHelpers;

let svc: TestService;
let browser: TestBrowser;
let page: Page;
let owner: { email: string; password: string };
let redacted: string;
let mono: string;

async function analyzedCall(
  accountId: string,
  agentId: string,
  over: { channels: number; diarized?: boolean; segments: unknown[] },
): Promise<string> {
  const db = svc.app.db;
  const call = await db.call.create({
    data: {
      accountId,
      agentId,
      source: 'api',
      status: 'analyzing',
      startedAt: new Date(),
      fileName: 'c.wav',
      fileSize: 1000n,
      fileSha256: '7'.padStart(64, '0'),
      contentType: 'audio/wav',
      storageKey: `k/${Math.random()}`,
      reservedMinutes: 1,
      period: '2026-11',
      durationSeconds: 24,
      language: 'en',
      channels: over.channels,
      diarized: over.diarized ?? false,
      diarizationConfidence: over.diarized ? 0.82 : null,
      segments: over.segments as object[],
    },
  });
  await createAnalyzeTask(svc.app, null)({ callId: call.id }, helpers);
  return call.id;
}

test.beforeAll(async ({ service }) => {
  await buildWeb({ ifStale: true, quiet: true });
  svc = service;
  const created = await createAccount(svc.app.db, { name: 'Understanding Co', seats: 5, timeZone: 'Europe/Madrid' });
  owner = created.owner;
  const accountId = created.account.id;
  const db = svc.app.db;
  const agent = await db.agent.create({ data: { accountId, name: 'Anna Smith', nameNormalized: 'annasmith' } });
  const template = await createTemplate(db, accountId, {
    name: 'Payments',
    definition: {
      version: 1,
      language: 'en',
      criteria: [{ key: 'thanks', label: 'Thanks the customer', kind: 'phrase', phrases: ['thank you'], weight: 1 }],
    },
  });
  await setDefaultTemplate(db, accountId, template.id);

  // Stereo, text and audio redacted: the transcript holds the placeholder the redaction step wrote.
  redacted = await analyzedCall(accountId, agent.id, {
    channels: 2,
    segments: [
      { start: 0, end: 3, speaker: 'agent', text: 'Can I have the card number, please?', channel: 0 },
      { start: 3.5, end: 8, speaker: 'customer', text: 'This is ridiculous, I am very angry.', channel: 1 },
      { start: 8.5, end: 13, speaker: 'customer', text: 'Yes. [CARD_NUMBER].', channel: 1 },
      { start: 13.5, end: 16, speaker: 'agent', text: 'Thank you, the payment is done.', channel: 0 },
      { start: 16.5, end: 20, speaker: 'customer', text: 'Great, thank you so much, that is wonderful.', channel: 1 },
    ],
  });
  await db.call.update({
    where: { id: redacted },
    data: { redactions: [{ kind: 'card_number', start: 9.1, end: 12.6 }], audioRedacted: true },
  });

  // Mono, two voices separated by the diarization step.
  mono = await analyzedCall(accountId, agent.id, {
    channels: 1,
    diarized: true,
    segments: [
      { start: 0, end: 4, speaker: 'agent', text: 'Good morning, thank you for calling, how can I help?', channel: 0 },
      { start: 4.5, end: 7, speaker: 'customer', text: 'My bill is wrong.', channel: 0 },
      {
        start: 7.5,
        end: 14,
        speaker: 'agent',
        text: 'I see it, I have corrected the bill and sent a new one.',
        channel: 0,
      },
      { start: 14.5, end: 16, speaker: 'customer', text: 'Thank you.', channel: 0 },
    ],
  });

  browser = await launchChromium({ viewport: { width: 1440, height: 1400 } });
  page = browser.page;
}, 240_000);

test.afterAll(async () => {
  await browser?.close();
});

describe('issue 14 on the call page', () => {
  test('marks the redacted card number, shows the customer sentiment, and splits a mono call into two speakers', async () => {
    await page.goto(`${svc.url}/calls/${redacted}`);
    await page.waitForURL(/\/signin/);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(new RegExp(`/calls/${redacted}$`));

    // The redacted span: the placeholder is a labelled mark in its transcript line, and the page says
    // the recording was redacted.
    const mark = page.getByTestId('transcript').locator('mark.redacted');
    await expect.poll(() => mark.textContent()).toBe('Card number');
    expect(await mark.getAttribute('title')).toBe('Redacted: Card number');
    expect(await page.getByText(/Redacted recording: 1 moment/).isVisible()).toBe(true);
    // …and the player's timeline marks where the beep is (9.1–12.6 s), with a legend saying what it is.
    const beep = page.getByTestId('redaction-mark');
    expect(await beep.count()).toBe(1);
    const [bar, span] = await Promise.all([
      page.getByTestId('player').locator('.player-bar').boundingBox(),
      beep.boundingBox(),
    ]);
    const duration = (await svc.app.db.call.findUniqueOrThrow({ where: { id: redacted } })).durationSeconds!;
    expect((span!.x - bar!.x) / bar!.width).toBeCloseTo(9.1 / duration, 1);
    expect(await page.getByText('Redacted (beep)').isVisible()).toBe(true);
    expect(await page.getByTestId('transcript').textContent()).not.toMatch(/\[CARD_NUMBER\]|\d{4}/);

    // The customer's sentiment: angry at first, thankful at the end.
    await expect.poll(() => page.getByTestId('sentiment-trend').textContent()).toMatch(/^Improved \(\+\d\.\d\d\)$/);
    expect(await page.getByText('Customer overall').isVisible()).toBe(true);

    // The mono call: agent and customer turns, the separation and its confidence, and a talk ratio.
    await page.goto(`${svc.url}/calls/${mono}`);
    const lines = page.getByTestId('segment');
    await expect.poll(() => lines.count()).toBe(4);
    const speakers = await lines.evaluateAll((els) =>
      els.map((el) =>
        el.textContent?.includes('Customer') ? 'customer' : el.textContent?.includes('Agent') ? 'agent' : '?',
      ),
    );
    expect(speakers).toEqual(['agent', 'customer', 'agent', 'customer']);
    expect(await page.getByText(/Speakers separated automatically \(confidence 82\s?%\)/).isVisible()).toBe(true);
    const ratio = page.locator('dt', { hasText: 'Agent share of the talking' }).locator('xpath=following-sibling::dd');
    expect(await ratio.textContent()).toMatch(/^\d{2}\s?%$/);
    expect(await page.getByRole('img', { name: /Talk time: Agent \d+\s?%, Customer \d+\s?%/ }).isVisible()).toBe(true);
  });
});
