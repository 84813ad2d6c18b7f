// Issue 3 failure paths: undecodable audio, no template, silence, and a worker killed mid-job.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { probeAudio } from '../../src/audio/decode.ts';
import { createWebhookEndpoint, setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { makeStereoCall, synth } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, test } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import { signedIn } from '../http/support.ts';
import type { Receiver } from '../support/receiver.ts';
import { seedAccount, type TestService } from '../support/service.ts';

let t: TestDb;
let api: TestService;
/** The test's own receiver, where every account it makes sends its webhooks. */
let receiver: Receiver;
/** A worker in this process on the api's storage, stopped at the end of the test that started it. */
let startWorker: (env?: Record<string, string>) => Promise<TestService>;

test.beforeAll(async ({ db, service, serviceWith }) => {
  t = db;
  api = service; // api only: workers are started per test
  startWorker = (env) => serviceWith({ api: false, worker: true, env: { STORAGE_DIR: api.config.storageDir, ...env } });
});
test.beforeEach(async ({ receiver: newReceiver }) => {
  receiver = await newReceiver();
});

const TEMPLATE = {
  version: 1,
  criteria: [{ key: 'greeting', label: 'Greets', kind: 'phrase', phrases: ['thank you for calling'], weight: 1 }],
  topics: [],
};

async function account(opts: { template: boolean }) {
  const s = await seedAccount(api);
  if (opts.template) {
    const tpl = await createTemplate(api.app.db, s.account.id, { name: 'QA', definition: TEMPLATE });
    await setDefaultTemplate(api.app.db, s.account.id, tpl.id);
  }
  await setWebhookEndpoint(api.app, s.account.id, receiver.url);
  return s;
}

async function waitForStatus(id: string, statuses: string[], ms = 120_000): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    const [row] = await t.sql('SELECT * FROM calls WHERE id = $1', [id]);
    if (row && statuses.includes(row.status)) return row;
    if (Date.now() > until) throw new Error(`call ${id} stuck in ${row?.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const shortCall = () =>
  makeStereoCall([
    { speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling Acme. How can I help you today?' },
  ]);

describe('failure paths', () => {
  test('garbage with an audio name → failed / undecodable, reservation released, no webhook', async () => {
    const worker = await startWorker();
    try {
      const s = await account({ template: true });
      const garbage = path.join(os.tmpdir(), 'escucha-garbage.mp3');
      writeFileSync(garbage, Buffer.from('this is definitely not an mp3 stream '.repeat(200)));
      const r = await postCall(api.url, {
        key: s.key,
        fields: { agent_code: 'AG-07' },
        file: { path: garbage, name: 'call.mp3' },
      });
      expect(r.status).toBe(201);
      const row = await waitForStatus(r.body.id, ['failed', 'analyzed', 'transcribed']);
      expect(row).toMatchObject({ status: 'failed', failure_reason: 'undecodable' });
      // The detail is shown to users: it names their file, never our storage path.
      expect(row.failure_detail).not.toContain(api.config.storageDir);
      const [u] = await t.sql('SELECT minutes_reserved, minutes_used, calls FROM usage_totals WHERE account_id = $1', [
        s.account.id,
      ]);
      expect(u).toEqual({ minutes_reserved: 0, minutes_used: 0, calls: 1 });
      expect(await t.sql('SELECT id FROM webhook_deliveries WHERE call_id = $1', [r.body.id])).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 120_000);

  test('only silence → failed / no_speech, no webhook, its length kept', async () => {
    const worker = await startWorker();
    try {
      const s = await account({ template: true });
      const r = await postCall(api.url, {
        key: s.key,
        fields: { agent_code: 'AG-07' },
        file: { path: await synth('silence', 5), name: 'quiet.wav' },
      });
      const row = await waitForStatus(r.body.id, ['failed', 'analyzed', 'transcribed']);
      expect(row).toMatchObject({ status: 'failed', failure_reason: 'no_speech' });
      expect(await t.sql('SELECT id FROM webhook_deliveries WHERE call_id = $1', [r.body.id])).toEqual([]);
      // The whole file was decoded before the verdict: the failed call still says how long it is,
      // in the app's GraphQL (the list and call page show it instead of "—").
      const viewer = await signedIn(api.app.db, s.account.id, 'viewer');
      const res = await fetch(`${api.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...viewer.headers() },
        body: JSON.stringify({ query: `{ call(id: "${r.body.id}") { status durationSeconds } }` }),
      });
      const { data } = (await res.json()) as { data: { call: { status: string; durationSeconds: number | null } } };
      expect(data.call.status).toBe('FAILED');
      expect(data.call.durationSeconds).toBeCloseTo(5, 1);
    } finally {
      await worker.stop();
    }
  }, 120_000);

  test('a language no engine covers → failed / unsupported_language, its length kept', async () => {
    const worker = await startWorker();
    try {
      const s = await account({ template: true });
      await createWebhookEndpoint(api.app, s.account.id, { url: receiver.url, eventTypes: ['call.failed'] });
      const audio = await shortCall();
      const r = await postCall(api.url, {
        key: s.key,
        fields: { agent_code: 'AG-07', language: 'ja' },
        file: { path: audio, name: 'call.wav' },
      });
      const row = await waitForStatus(r.body.id, ['failed', 'analyzed', 'transcribed']);
      expect(row).toMatchObject({ status: 'failed', failure_reason: 'unsupported_language' });
      // Failed before decoding: the length ffprobe reported is kept, and the call.failed event carries it.
      const probed = (await probeAudio(audio)).durationSeconds;
      expect(probed).toBeGreaterThan(1);
      expect(row.duration_seconds).toBeCloseTo(probed, 1);
      const [delivery] = await t.sql('SELECT event_type, payload FROM webhook_deliveries WHERE call_id = $1', [
        r.body.id,
      ]);
      expect(delivery.event_type).toBe('call.failed');
      expect(delivery.payload.data.duration_seconds).toBeCloseTo(probed, 1);
    } finally {
      await worker.stop();
    }
  }, 120_000);

  test('no template → transcribed (not analyzed), minutes settled, no webhook', async () => {
    const worker = await startWorker();
    try {
      const s = await account({ template: false });
      const r = await postCall(api.url, {
        key: s.key,
        fields: { agent_code: 'AG-07' },
        file: { path: await shortCall(), name: 'call.wav' },
      });
      const row = await waitForStatus(r.body.id, ['failed', 'analyzed', 'transcribed']);
      expect(row.status).toBe('transcribed');
      expect(row.used_minutes).toBe(1);
      expect(row.segments.length).toBeGreaterThan(0);
      expect(await t.sql('SELECT id FROM webhook_deliveries WHERE call_id = $1', [r.body.id])).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 120_000);

  test('a worker process killed during transcription: the job is retried and the call ends analyzed, minutes charged once', async ({
    serviceProcess,
  }) => {
    const s = await account({ template: true });
    // A long enough call that transcription is still running when the worker dies.
    const turns = Array.from({ length: 6 }, (_, i) => ({
      speaker: (i % 2 ? 'customer' : 'agent') as 'agent' | 'customer',
      voice: 'en',
      text: 'Hello, thank you for calling Acme. I would like to talk about my invoice and the charges on my account this month.',
    }));
    const r = await postCall(api.url, {
      key: s.key,
      fields: { agent_code: 'AG-07' },
      file: { path: await makeStereoCall(turns), name: 'long.wav' },
    });
    expect(r.status).toBe(201);

    const child = await serviceProcess({
      args: ['--role', 'worker'],
      env: { DATA_DIR: api.dataDir, STORAGE_DIR: api.config.storageDir, WORKER_STALE_SECONDS: '4' },
    });
    await waitForStatus(r.body.id, ['transcribing'], 60_000);
    child.child.kill('SIGKILL');
    expect(await child.exited).toBe('SIGKILL');
    expect((await t.sql('SELECT status FROM calls WHERE id = $1', [r.body.id]))[0].status).toBe('transcribing');

    const worker = await startWorker({ WORKER_STALE_SECONDS: '4' });
    try {
      const row = await waitForStatus(r.body.id, ['analyzed', 'failed', 'transcribed'], 120_000);
      expect(row.status).toBe('analyzed');
      const ledger = await t.sql('SELECT kind, minutes FROM minute_ledger WHERE call_id = $1 ORDER BY id', [r.body.id]);
      expect(ledger.map((l) => l.kind)).toEqual(['reserve', 'settle']);
      const [u] = await t.sql('SELECT minutes_used, minutes_reserved FROM usage_totals WHERE account_id = $1', [
        s.account.id,
      ]);
      expect(u).toEqual({ minutes_used: row.used_minutes, minutes_reserved: 0 });
      await receiver.waitFor(1, 30_000);
      expect(await t.sql('SELECT event_id FROM webhook_deliveries WHERE call_id = $1', [r.body.id])).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  }, 240_000);
});
