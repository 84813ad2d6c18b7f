// Issue 14, sentiment end to end: real speech (espeak-ng), real intake, real Moonshine. A customer
// who complains at the start and thanks the agent at the end comes out negative then positive, with
// a rising trend, in English and in Spanish; the webhook carries it and the trend criterion passes.
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { makeStereoCall, type Turn } from '../fixtures/audio.ts';
import { expect, testWithService } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';

const test = testWithService({ worker: true, env: { PUBLIC_URL: 'https://escucha.test' } });

const CALLS: { language: 'en' | 'es'; turns: Turn[] }[] = [
  {
    language: 'en',
    turns: [
      { speaker: 'agent', voice: 'en', text: 'Good morning, thank you for calling Acme.' },
      { speaker: 'customer', voice: 'en', text: 'This is terrible. I am very angry. Nothing works.' },
      { speaker: 'agent', voice: 'en', text: 'I will reset your line now.' },
      { speaker: 'customer', voice: 'en', text: 'Thank you so much. That is great.' },
    ],
  },
  {
    language: 'es',
    turns: [
      { speaker: 'agent', voice: 'es', text: 'Buenos días, gracias por llamar a Acme.' },
      { speaker: 'customer', voice: 'es', text: 'Esto es un desastre. Estoy muy enfadado.' },
      { speaker: 'agent', voice: 'es', text: 'Ahora le reinicio la línea.' },
      { speaker: 'customer', voice: 'es', text: 'Muchísimas gracias. Es estupendo.' },
    ],
  },
];

test('a customer who starts angry and ends thankful reads negative, then positive, rising', async ({
  service,
  seed,
  receiver,
  db,
}) => {
  const { account, key } = await seed({ agents: [{ name: 'Anna Smith', code: 'AG-07' }] });
  const tpl = await createTemplate(service.app.db, account.id, {
    name: 'Care',
    definition: {
      version: 1,
      criteria: [
        {
          key: 'ends_better',
          label: 'Customer ends no worse than they started',
          kind: 'metric',
          metric: 'customer_sentiment_trend',
          op: 'gte',
          value: 0,
          weight: 1,
        },
      ],
    },
  });
  await setDefaultTemplate(service.app.db, account.id, tpl.id);
  const hook = await receiver();
  await setWebhookEndpoint(service.app, account.id, hook.url);

  const ids: string[] = [];
  for (const call of CALLS) {
    const posted = await postCall(service.url, {
      key,
      fields: { agent_code: 'AG-07', external_id: `mood-${call.language}`, language: call.language },
      file: { path: await makeStereoCall(call.turns), name: `mood-${call.language}.wav` },
    });
    expect(posted.status).toBe(201);
    ids.push(posted.body.id);
  }
  await hook.waitFor(CALLS.length, 200_000);

  for (const [i, call] of CALLS.entries()) {
    const [row] = await db.sql(
      `SELECT segments, sentiment, customer_sentiment_trend, criteria FROM calls WHERE id = $1`,
      [ids[i]],
    );
    const customer = row.segments
      .map((s: { speaker: string; text: string }, n: number) => ({ ...s, mood: row.sentiment.segments[n] }))
      .filter((s: { speaker: string }) => s.speaker === 'customer');
    const said = customer.map((s: { text: string }) => s.text).join(' | ');
    expect(customer[0].mood.label, `${call.language}: ${said}`).toBe('negative');
    expect(customer[customer.length - 1].mood.label, `${call.language}: ${said}`).toBe('positive');
    expect(row.customer_sentiment_trend).toBeGreaterThan(0.5);
    expect(row.criteria[0]).toMatchObject({ key: 'ends_better', result: 'passed' });

    const event = hook.received.map((r) => JSON.parse(r.body)).find((e) => e.data.id === ids[i]);
    expect(event.data.sentiment.customer_trend).toBe(row.customer_sentiment_trend);
  }
}, 300_000);
