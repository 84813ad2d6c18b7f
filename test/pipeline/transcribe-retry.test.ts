// An outage of the transcription API, or a decoder the operator has not installed, is the operator's
// fault: the call goes back to the queue with its reason in the history and is tried again later,
// however many times, and is never failed for it (issue 9 point 2).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { OpenAiEngine } from '../../src/transcription/openai.ts';
import { createTranscribeTask } from '../../workers/transcribe.ts';
import { makeStereoCall } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, test } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';

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

test.beforeAll(({ db, service }) => {
  t = db;
  svc = service;
});
// Its own msw server, not the harness's: it must not listen before the file's own intake request is made.
test.afterAll(() => api.close());

const helpers = (attempts: number) =>
  ({ job: { attempts, max_attempts: 8 }, logger: { info() {}, debug() {}, warn() {}, error() {} } }) as any;

async function callState(id: string) {
  const [row] = await t.sql('SELECT status, failure_reason FROM calls WHERE id = $1', [id]);
  const jobs = await t.sql(
    `SELECT payload->>'waits' AS waits, run_at > now() AS later FROM graphile_worker._private_jobs WHERE key = $1`,
    [`transcribe:${id}`],
  );
  return { ...row, jobs };
}

describe('transcribe task and operator faults', () => {
  test('a 503 from the transcription API puts the call back in the queue with a later retry, even on the last attempt', async () => {
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

    await task({ callId: r.body.id }, helpers(1));
    expect(await callState(r.body.id)).toEqual({
      status: 'queued',
      failure_reason: null,
      jobs: [{ waits: '1', later: true }],
    });

    await task({ callId: r.body.id, waits: 7 }, helpers(8));
    const state = await callState(r.body.id);
    expect(state).toMatchObject({ status: 'queued', failure_reason: null });
    expect(state.jobs).toEqual([{ waits: '8', later: true }]);
    const [event] = await t.sql(
      `SELECT detail FROM call_events WHERE call_id = $1 AND status = 'queued' ORDER BY id DESC LIMIT 1`,
      [r.body.id],
    );
    expect(event.detail).toContain('waiting for the service: Transcription API answered 503: overloaded');
    const [u] = await t.sql('SELECT minutes_reserved, minutes_used FROM usage_totals WHERE account_id = $1', [
      s.account.id,
    ]);
    expect(u).toEqual({ minutes_reserved: 1, minutes_used: 0 });
  }, 60_000);

  test('a decoder that cannot be run (FFPROBE_PATH wrong) keeps the call queued, never `undecodable`', async () => {
    const s = await seedAccount(svc);
    const file = await makeStereoCall([{ speaker: 'agent', voice: 'en', text: 'Hello there.' }]);
    const r = await postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', language: 'en' },
      file: { path: file, name: 'call.wav' },
    });
    const app = {
      ...svc.app,
      config: { ...svc.app.config, decoder: { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' } },
    };
    await createTranscribeTask(app, [])({ callId: r.body.id }, helpers(8));
    expect(await callState(r.body.id)).toMatchObject({ status: 'queued', failure_reason: null });
    const [event] = await t.sql(
      `SELECT detail FROM call_events WHERE call_id = $1 AND status = 'queued' ORDER BY id DESC LIMIT 1`,
      [r.body.id],
    );
    expect(event.detail).toContain(
      'cannot run /nonexistent/ffprobe (ENOENT): install it or set FFMPEG_PATH / FFPROBE_PATH',
    );
  }, 60_000);
});
