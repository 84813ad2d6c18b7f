// A passing outage of the transcription engine is retried, never turned into a failed call; only
// after the last attempt does the call fail (and release its minutes).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiEngine } from '../../src/transcription/openai.ts';
import { createTranscribeTask } from '../../workers/transcribe.ts';
import { makeStereoCall } from '../fixtures/audio.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { postCall } from '../support/intake.ts';
import { seedAccount, startTestService, type TestService } from '../support/service.ts';

// Reads the upload before answering, as a real server does (answering mid-upload races msw's
// interceptor against the request stream).
const api = setupServer(
  http.post('https://stt.example.test/v1/audio/transcriptions', async ({ request }) => {
    await request.arrayBuffer();
    return new HttpResponse('overloaded', { status: 503 });
  }),
);
let t: TestDb;
let svc: TestService;

beforeAll(async () => {
  t = await createTestDb();
  svc = await startTestService(t);
});
afterAll(async () => {
  api.close();
  await svc.stop();
  await t.drop();
});

const helpers = (attempts: number) =>
  ({ job: { attempts, max_attempts: 8 }, logger: { info() {}, debug() {}, warn() {}, error() {} } }) as any;

describe('transcribe task and engine outages', () => {
  it('a 503 from the engine leaves the call transcribing and asks for a retry; the last attempt fails it and releases its minutes', async () => {
    const s = await seedAccount(svc);
    const file = await makeStereoCall([{ speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling.' }]);
    const r = await postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', language: 'en' },
      file: { path: file, name: 'call.wav' },
    });
    // The stand-in API goes up only now: the intake request above is ours, not a third party's.
    api.listen({ onUnhandledFrame: 'error' });
    const engine = new OpenAiEngine({ baseUrl: 'https://stt.example.test/v1', model: 'whisper-1', retries: 0 });
    const task = createTranscribeTask(svc.app, [engine]);

    await expect(task({ callId: r.body.id }, helpers(1))).rejects.toThrow();
    let [row] = await t.sql('SELECT status, failure_reason FROM calls WHERE id = $1', [r.body.id]);
    expect(row).toEqual({ status: 'transcribing', failure_reason: null });

    await expect(task({ callId: r.body.id }, helpers(8))).rejects.toThrow();
    [row] = await t.sql('SELECT status, failure_reason FROM calls WHERE id = $1', [r.body.id]);
    expect(row).toEqual({ status: 'failed', failure_reason: 'internal_error' });
    const [u] = await t.sql('SELECT minutes_reserved, minutes_used FROM usage_periods WHERE account_id = $1', [
      s.account.id,
    ]);
    expect(u).toEqual({ minutes_reserved: 0, minutes_used: 0 });
  }, 60_000);
});
