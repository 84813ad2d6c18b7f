// Issue 3 end to end: real speech (espeak-ng), real intake over HTTP, real Moonshine transcription,
// real analysis, and a signed `call.analyzed` received by a real HTTP server on loopback.
import { Webhook } from 'standardwebhooks';
import { createCampaign } from '../../src/accounts/campaigns.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { convert, makeStereoCall, type Turn } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, testWithService } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import type { TestService } from '../support/service.ts';

const EN: Turn[] = [
  { speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling Acme support. My name is Anna.' },
  { speaker: 'customer', voice: 'en', text: 'Hi. I have a problem with my invoice. I was charged twice this month.' },
  { speaker: 'agent', voice: 'en', text: 'I am very sorry about that. I will refund the extra charge today.' },
  { speaker: 'customer', voice: 'en', text: 'Great, thank you very much. Goodbye.' },
];
const ES: Turn[] = [
  { speaker: 'agent', voice: 'es', text: 'Buenos días, gracias por llamar a Acme. Le atiende Ana.' },
  { speaker: 'customer', voice: 'es', text: 'Hola, tengo un problema con mi factura. Me han cobrado dos veces.' },
  { speaker: 'agent', voice: 'es', text: 'Lo siento mucho. Le devuelvo el cargo hoy mismo.' },
  { speaker: 'customer', voice: 'es', text: 'Muchas gracias. Adiós.' },
];

const template = (greeting: string, apology: string, never: string, billing: string[], tech: string[]) => ({
  version: 1,
  criteria: [
    {
      key: 'greeting',
      label: 'Greets and thanks',
      kind: 'phrase',
      phrases: [greeting],
      speaker: 'agent',
      weight: 3,
      window: { from: 'start', seconds: 30 },
    },
    { key: 'apology', label: 'Apologises', kind: 'phrase', phrases: [apology], speaker: 'agent', weight: 2 },
    { key: 'upsell', label: 'Offers the premium plan', kind: 'phrase', phrases: [never], speaker: 'agent', weight: 5 },
    {
      key: 'no_insults',
      label: 'No insults',
      kind: 'forbidden',
      phrases: ['stupid', 'idiot'],
      speaker: 'agent',
      weight: 2,
    },
  ],
  topics: [
    { key: 'billing', label: 'Billing', phrases: billing },
    { key: 'technical', label: 'Technical', phrases: tech },
  ],
});

const test = testWithService({ worker: true });
let t: TestDb;
let svc: TestService;
let key: string;
let accountId: string;

test.beforeAll(async ({ db, service, seed }) => {
  t = db;
  svc = service;
  const seeded = await seed({ agents: [{ name: 'Anna Smith', code: 'AG-07' }] });
  key = seeded.key;
  accountId = seeded.account.id;
  const en = await createTemplate(svc.app.db, accountId, {
    name: 'EN support',
    definition: template(
      'thank you for calling',
      'sorry',
      'premium plan',
      ['invoice', 'charged', 'refund'],
      ['router', 'internet'],
    ),
  });
  const es = await createTemplate(svc.app.db, accountId, {
    name: 'ES atención',
    definition: template(
      'gracias por llamar',
      'lo siento',
      'plan premium',
      ['factura', 'cobrado', 'cargo'],
      ['router', 'internet'],
    ),
  });
  await setDefaultTemplate(svc.app.db, accountId, en.id);
  await createCampaign(svc.app.db, accountId, { name: 'Atención', language: 'es', templateId: es.id });
}, 180_000);

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '');

describe('a posted call flows by itself to a signed webhook', () => {
  test('English (MP3, language detected) and Spanish (OGG, campaign language) calls are transcribed, scored and delivered', async ({
    receiver: newReceiver,
  }) => {
    const receiver = await newReceiver();
    const { secret } = (await setWebhookEndpoint(svc.app, accountId, receiver.url)) as { secret: string };
    const enFile = await convert(await makeStereoCall(EN), 'mp3');
    const esFile = await convert(await makeStereoCall(ES), 'ogg');
    const enPost = await postCall(svc.url, {
      key,
      fields: { agent_code: 'AG-07', external_id: 'en-1' },
      file: { path: enFile, name: 'call-en.mp3' },
    });
    const esPost = await postCall(svc.url, {
      key,
      fields: { agent_code: 'AG-07', external_id: 'es-1', campaign: 'atencion' },
      file: { path: esFile, name: 'llamada.ogg' },
    });
    expect([enPost.status, esPost.status]).toEqual([201, 201]);

    await receiver.waitFor(2, 150_000);
    const wh = new Webhook(secret);
    const events = receiver.received.map((r) => wh.verify(r.body, r.headers as Record<string, string>) as any);
    const byId = new Map(events.map((e) => [e.data.id, e]));

    for (const [post, lang, words] of [
      [enPost, 'en', ['thank', 'calling', 'invoice', 'refund']],
      [esPost, 'es', ['gracias', 'llamar', 'factura']],
    ] as const) {
      const event = byId.get(post.body.id);
      expect(event, `webhook for ${lang}`).toBeTruthy();
      expect(event.type).toBe('call.analyzed');
      expect(event.data).toMatchObject({
        id: post.body.id,
        url: `https://escucha.test/calls/${post.body.id}`,
        language: lang,
        topic: expect.stringMatching(/billing/i),
      });
      const results = Object.fromEntries(event.data.criteria.map((c: any) => [c.key, c.result]));
      expect(results).toEqual({ greeting: 'passed', apology: 'passed', upsell: 'failed', no_insults: 'passed' });
      // weights 3 + 2 + 2 of 12 passed → 58.3
      expect(event.data.score).toBeCloseTo(58.3, 1);
      expect(event.data.summary.length).toBeGreaterThan(10);

      const [row] = await t.sql(
        'SELECT status, segments, used_minutes, reserved_minutes, channels FROM calls WHERE id = $1',
        [post.body.id],
      );
      expect(row.status).toBe('analyzed');
      expect(row.channels).toBe(2);
      const transcript = norm(row.segments.map((s: any) => s.text).join(' '));
      for (const w of words) expect(transcript).toContain(w);
      expect(new Set(row.segments.map((s: any) => s.speaker))).toEqual(new Set(['agent', 'customer']));
      expect(row.used_minutes).toBe(1);
      const history = await t.sql('SELECT status FROM call_events WHERE call_id = $1 ORDER BY at, id', [post.body.id]);
      expect(history.map((h) => h.status)).toEqual(['queued', 'transcribing', 'analyzing', 'analyzed']);
    }
    const [usage] = await t.sql('SELECT minutes_used, minutes_reserved FROM usage_totals WHERE account_id = $1', [
      accountId,
    ]);
    expect(usage).toEqual({ minutes_used: 2, minutes_reserved: 0 });
  }, 200_000);
});
