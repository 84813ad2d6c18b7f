// Issue 14, two speakers in mono: a mono recording of two different voices (an espeak man as the
// agent, an espeak woman as the customer) goes through real intake, Moonshine and analysis; the
// transcript comes back with agent and customer turns in the right order, the call is marked as
// separated automatically with a confidence, and the per-speaker metrics (talk ratio) exist.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { makeStereoCall, type Turn } from '../fixtures/audio.ts';
import { expect, testWithService } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';

const run = promisify(execFile);
const test = testWithService({ worker: true, env: { PUBLIC_URL: 'https://escucha.test' } });

const TURNS: Turn[] = [
  { speaker: 'agent', voice: 'en-us', text: 'Thank you for calling Acme, my name is Laura. How can I help you today?' },
  { speaker: 'customer', voice: 'en+f3', text: 'Hi, my internet stops working every evening.' },
  { speaker: 'agent', voice: 'en-us', text: 'I am sorry to hear that. I will send a technician tomorrow morning.' },
  { speaker: 'customer', voice: 'en+f3', text: 'That works for me, thanks.' },
];

test('a mono recording of two voices gets agent and customer turns and a talk ratio', async ({
  service,
  seed,
  receiver,
  db,
}) => {
  const { account, key } = await seed({ agents: [{ name: 'Laura Gómez', code: 'AG-01' }] });
  const tpl = await createTemplate(service.app.db, account.id, {
    name: 'Support',
    definition: {
      version: 1,
      criteria: [
        {
          key: 'greeting',
          label: 'Greeting',
          kind: 'phrase',
          phrases: ['thank you for calling'],
          speaker: 'agent',
          weight: 1,
        },
      ],
    },
  });
  await setDefaultTemplate(service.app.db, account.id, tpl.id);
  const hook = await receiver();
  await setWebhookEndpoint(service.app, account.id, hook.url);

  // Both sides in one channel, as a PBX that records a single mix.
  const dir = await mkdtemp(path.join(tmpdir(), 'escucha-mono-'));
  try {
    const mono = path.join(dir, 'mono.wav');
    await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', await makeStereoCall(TURNS), '-ac', '1', mono]);
    const posted = await postCall(service.url, {
      key,
      fields: { agent_code: 'AG-01', language: 'en' },
      file: { path: mono, name: 'mono.wav' },
    });
    expect(posted.status).toBe(201);
    await hook.waitFor(1, 150_000);
    // The worker records the delivery after the receiver answered: wait for that last write.
    await expect
      .poll(
        async () =>
          (await db.sql('SELECT status FROM webhook_deliveries WHERE call_id = $1', [posted.body.id]))[0]?.status,
        { timeout: 15_000 },
      )
      .toBe('succeeded');

    const [row] = await db.sql(
      'SELECT status, channels, segments, metrics, criteria, diarized, diarization_confidence FROM calls WHERE id = $1',
      [posted.body.id],
    );
    expect(row.status).toBe('analyzed');
    expect(row.channels).toBe(1);
    expect(row.diarized).toBe(true);
    expect(row.diarization_confidence).toBeGreaterThanOrEqual(0.5);
    // One segment per turn here (pauses of 0.8 s), each with its voice's role, in the order spoken.
    const speakers = (row.segments as { speaker: string }[]).map((s) => s.speaker);
    expect(speakers.filter((s, i) => s !== speakers[i - 1])).toEqual(['agent', 'customer', 'agent', 'customer']);
    expect(row.metrics.talk_ratio).toBeGreaterThan(0.5);
    expect(row.metrics.talk_ratio).toBeLessThan(0.9);
    expect(row.metrics.interruptions).toBe(0);
    // The agent-only greeting is judged on the agent's words.
    expect(row.criteria.find((c: { key: string }) => c.key === 'greeting').result).toBe('passed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
