// Issue 9 point 1: the service as `npm start` runs it, with a PATH that holds no ffmpeg, ffprobe or
// sox: every accepted format is decoded by the binaries of the npm packages and goes from intake to
// analyzed, with a signed webhook. AMR from a phone (with DTX silence frames) keeps its timeline.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { locate, resolveDecoder } from '../../src/audio/binaries.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { AUDIO_FORMATS, convert, makeStereoCall, speak, synth } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { expect, test } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import type { ServiceProcess } from '../support/process.ts';

const run = promisify(execFile);
// Node itself and nothing else: no /usr/bin, so no Debian ffmpeg, ffprobe or sox.
const BARE_PATH = path.dirname(process.execPath);
let t: TestDb;
let svc: ServiceProcess;

test.beforeAll(async ({ db, serviceProcess }) => {
  t = db;
  // Nothing of the test run's environment but HOME: no PATH of its own to find a decoder on.
  svc = await serviceProcess({ clean: true, env: { PATH: BARE_PATH, HOME: process.env.HOME } });
}, 120_000);

test('the PATH given to the service has no decoder on it', () => {
  const saved = process.env.PATH;
  process.env.PATH = BARE_PATH;
  try {
    expect([locate('ffmpeg'), locate('ffprobe'), locate('sox')]).toEqual([null, null, null]);
  } finally {
    process.env.PATH = saved;
  }
});

test('every accepted format goes from intake to analyzed and a signed webhook, with no system decoder', async ({
  app,
  seed,
  receiver: newReceiver,
}) => {
  const receiver = await newReceiver();
  const s = await seed();
  const tpl = await createTemplate(app.db, s.account.id, {
    name: 'QA',
    definition: {
      version: 1,
      criteria: [{ key: 'greeting', label: 'Greets', kind: 'phrase', phrases: ['thank you for calling'], weight: 1 }],
      topics: [],
    },
  });
  await setDefaultTemplate(app.db, s.account.id, tpl.id);
  const { secret } = (await setWebhookEndpoint(app, s.account.id, receiver.url)) as { secret: string };

  const call = await makeStereoCall([
    { speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling Acme support.' },
    { speaker: 'customer', voice: 'en', text: 'Hi, I have a question about my invoice.' },
  ]);
  const ids = new Map<string, string>();
  for (const format of AUDIO_FORMATS) {
    const r = await postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', language: 'en', external_id: `bare-${format}` },
      file: { path: await convert(call, format), name: `call.${format}` },
    });
    expect(r.status, format).toBe(201);
    ids.set(r.body.id, format);
  }
  await receiver.waitFor(AUDIO_FORMATS.length, 200_000);
  const wh = new Webhook(secret);
  const delivered = receiver.received.map((r) => wh.verify(r.body, r.headers as Record<string, string>) as any);
  for (const [id, format] of ids) {
    const event = delivered.find((e) => e.data.id === id);
    expect(event?.type, format).toBe('call.analyzed');
    const [row] = await t.sql('SELECT status, search_text FROM calls WHERE id = $1', [id]);
    expect(row.status, format).toBe('analyzed');
    expect(row.search_text, format).toMatch(/calling/);
  }

  // What the service measured on the way.
  const metrics = await (await fetch(`${svc.url}/metrics`)).text();
  expect(metrics).toMatch(/^escucha_job_duration_seconds_count\{task="transcribe",outcome="ok"\} (\d+)/m);
  expect(Number(/^escucha_transcription_realtime_factor_count (\d+)/m.exec(metrics)?.[1])).toBe(AUDIO_FORMATS.length);
  expect(Number(/^escucha_webhook_attempts_total\{outcome="delivered"\} (\d+)/m.exec(metrics)?.[1])).toBe(
    AUDIO_FORMATS.length,
  );
}, 300_000);

test('AMR recorded with DTX (comfort-noise frames in pauses) keeps its full duration, decoded without sox', async ({
  seed,
}) => {
  const { ffmpeg } = resolveDecoder();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-dtx-'));
  const wav = path.join(dir, 'in.wav');
  const amr = path.join(dir, 'phone.amr');
  const words = await speak('Thank you for calling. Please hold on.', { voice: 'en' });
  const pause = await synth('silence', 6);
  await run(ffmpeg, [
    '-v',
    'error',
    '-i',
    words,
    '-i',
    pause,
    '-i',
    words,
    '-filter_complex',
    '[0][1][2]concat=n=3:v=0:a=1',
    '-ar',
    '8000',
    '-ac',
    '1',
    wav,
  ]);
  await run(ffmpeg, ['-v', 'error', '-i', wav, '-c:a', 'libopencore_amrnb', '-dtx', '1', '-b:a', '12.2k', amr]);
  const expected = Number(
    (await run(resolveDecoder().ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav]))
      .stdout,
  );

  const s = await seed();
  const r = await postCall(svc.url, {
    key: s.key,
    fields: { agent_code: 'AG-07', language: 'en' },
    file: { path: amr },
  });
  expect(r.status).toBe(201);
  const deadline = Date.now() + 120_000;
  let row: any;
  while (Date.now() < deadline) {
    [row] = await t.sql('SELECT status, duration_seconds, segments FROM calls WHERE id = $1', [r.body.id]);
    if (!['queued', 'transcribing'].includes(row.status)) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  expect(row.status).toBe('transcribed');
  // FFmpeg's own AMR decoder drops the DTX frames and makes this call about 6 s shorter.
  expect(Math.abs(Number(row.duration_seconds) - expected)).toBeLessThan(0.2);
  // The second sentence is heard after the pause, where it really is.
  expect(row.segments.at(-1).start).toBeGreaterThan(expected / 2);
}, 180_000);
