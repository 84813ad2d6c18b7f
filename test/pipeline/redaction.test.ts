// Issue 14, redaction end to end: an account with text-and-audio redaction receives a call in
// which the customer reads out a card number (real speech, real intake, real Moonshine). The
// number must appear nowhere: not in the database, search, CSV, webhook, nor the stored audio
// (checked by transcribing the stored copy again), and the stored audio beeps where it was said.
import { Webhook } from 'standardwebhooks';
import { setRedaction } from '../../src/accounts/redaction.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { detectPii, PII_KINDS } from '../../src/redaction/detect.ts';
import { digitRuns, numberWords } from '../../src/redaction/numbers.ts';
import { countCalls } from '../../src/calls/calls-query.ts';
import { exportCallRows } from '../../src/export/calls-csv.ts';
import { createEngines, transcribeFile } from '../../src/transcription/index.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { makeStereoCall, pcm16k, toneAmplitude, type Turn } from '../fixtures/audio.ts';
import { expect, testWithService } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';

const test = testWithService({ worker: true, env: { PUBLIC_URL: 'https://escucha.test' } });

const TURNS: Turn[] = [
  { speaker: 'agent', voice: 'en', text: 'Thank you for calling Acme. Can I have the card number, please?' },
  {
    speaker: 'customer',
    voice: 'en',
    text: 'Yes. Four five three two. Zero one five one. One two eight three. Zero three six six.',
  },
  { speaker: 'agent', voice: 'en', text: 'Thank you. The payment is done. Goodbye.' },
];

const GROUPS = ['4532', '0151', '1283', '0366'];
/** Any group of the card's digits, in any form the recogniser may write it: "4532", "four five three two". */
const leaksCard = (text: string) =>
  detectPii(text, ['card_number'], 'en').length > 0 ||
  digitRuns(text, numberWords('en')).some((r) => GROUPS.some((g) => r.digits.includes(g)));

test('a card number read out is redacted from text, search, CSV, webhook and audio', async ({
  service,
  seed,
  receiver,
  db,
}) => {
  const { account, key } = await seed({ agents: [{ name: 'Anna Smith', code: 'AG-07' }] });
  await setRedaction(service.app.db, account.id, { mode: 'text_audio', kinds: [...PII_KINDS] });
  const tpl = await createTemplate(service.app.db, account.id, {
    name: 'Payments',
    definition: {
      version: 1,
      criteria: [
        { key: 'thanks', label: 'Thanks', kind: 'phrase', phrases: ['thank you'], speaker: 'agent', weight: 1 },
      ],
      topics: [{ key: 'payment', label: 'Payment', phrases: ['payment', 'card'] }],
    },
  });
  await setDefaultTemplate(service.app.db, account.id, tpl.id);
  const hook = await receiver();
  const { secret } = (await setWebhookEndpoint(service.app, account.id, hook.url)) as { secret: string };

  const posted = await postCall(service.url, {
    key,
    fields: { agent_code: 'AG-07', external_id: 'pay-1', language: 'en' },
    file: { path: await makeStereoCall(TURNS), name: 'payment.wav' },
  });
  expect(posted.status).toBe(201);
  await hook.waitFor(1, 150_000);

  // Webhook: verified and analyzed, with no digit group of the card in it (summary, evidence).
  const event = new Webhook(secret).verify(hook.received[0]!.body, hook.received[0]!.headers as any) as any;
  expect(event.type).toBe('call.analyzed');
  expect(leaksCard(hook.received[0]!.body)).toBe(false);

  // Database: every text the call keeps (transcript, search text, summary, criteria and evidence).
  const [row] = await db.sql(
    `SELECT segments, search_text, summary, criteria::text AS criteria, storage_key, content_type,
            audio_redacted, redactions
       FROM calls WHERE id = $1`,
    [posted.body.id],
  );
  const transcript = row.segments.map((s: { text: string }) => s.text).join(' ');
  expect(transcript).toContain('[CARD_NUMBER]');
  for (const text of [transcript, row.search_text, row.summary ?? '', row.criteria ?? ''])
    expect(leaksCard(text), text).toBe(false);
  const events = await db.sql(`SELECT string_agg(coalesce(detail, ''), ' ') AS t FROM call_events WHERE call_id = $1`, [
    posted.body.id,
  ]);
  expect(leaksCard(events[0].t ?? '')).toBe(false);
  expect(row.audio_redacted).toBe(true);
  expect(row.content_type).toBe('audio/ogg');
  expect(row.redactions.length).toBeGreaterThan(0);
  expect(row.redactions[0].kind).toBe('card_number');

  // Search finds nothing by the digits; CSV carries the placeholder.
  for (const search of ['4532', 'four five three two'])
    expect((await countCalls(service.app.db, account.id, { search })).count).toBe(0);
  const csv: string[] = [];
  for await (const r of exportCallRows(service.app.db, account.id, {}, { publicUrl: 'https://escucha.test' }))
    csv.push(JSON.stringify(r));
  expect(csv).toHaveLength(1);
  expect(leaksCard(csv.join('\n'))).toBe(false);

  // Storage: only the redacted copy is left, it beeps over each redacted span (the 1 kHz tone of
  // src/redaction/audio.ts, where the original has none: silence reads 0.000), and hearing it again
  // finds no card number.
  expect(row.storage_key).toMatch(/\.redacted\.ogg$/);
  expect(await service.app.storage.exists(row.storage_key.replace(/\.redacted\.ogg$/, '.wav'))).toBe(false);
  const stored = await service.app.storage.withLocalFile(row.storage_key, (file) => pcm16k(file));
  for (const span of row.redactions as { start: number; end: number }[]) {
    expect(toneAmplitude(stored, 1000, span.start + 0.05, span.end - 0.05), JSON.stringify(span)).toBeGreaterThan(0.01);
  }
  const engines = createEngines({
    engine: 'moonshine',
    modelsDir: service.app.config.modelsDir,
    moonshineLanguages: ['en'],
    beam: 1,
    biasBoost: 0,
  });
  const again = await service.app.storage.withLocalFile(row.storage_key, (file) =>
    transcribeFile(file, { engines, language: 'en', decoder: service.app.config.decoder }),
  );
  const heard = again.segments.map((s) => s.text).join(' ');
  expect(heard.toLowerCase()).toContain('thank');
  expect(leaksCard(heard)).toBe(false);
}, 240_000);
