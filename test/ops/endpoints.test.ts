// Issue 9 point 5: /healthz, /readyz (named checks) and /metrics (Prometheus, optionally behind a token).
import { makeStereoCall } from '../fixtures/audio.ts';
import { postCall } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { describe, expect, testWithService } from '../support/harness.ts';

const TOKEN = 'metrics-token-0123456789';
const test = testWithService({ env: { METRICS_TOKEN: TOKEN } });
let svc: TestService;

test.beforeAll(async ({ service }) => {
  svc = service;
});

const metrics = async () => {
  const res = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
};
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('operations endpoints', () => {
  test('GET /healthz says the process is alive', async () => {
    const res = await fetch(`${svc.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  test('GET /readyz lists each named check; all pass on a complete install', async () => {
    const res = await fetch(`${svc.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      checks: [
        { name: 'database', ok: true },
        { name: 'storage', ok: true },
        { name: 'decoder', ok: true },
        { name: 'engine:en', ok: true },
        { name: 'engine:es', ok: true },
      ],
    });
  });

  test('GET /readyz is 503 and names the decoder when FFMPEG_PATH points nowhere, and the engine of a language with no model', async ({
    serviceWith,
  }) => {
    const broken = await serviceWith({
      env: { FFMPEG_PATH: '/nonexistent/ffmpeg', MOONSHINE_LANGUAGES: 'en,es,fr' },
    });
    try {
      const res = await fetch(`${broken.url}/readyz`);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks.find((c: any) => c.name === 'decoder')).toEqual({
        name: 'decoder',
        ok: false,
        message: 'cannot run /nonexistent/ffmpeg: run `npm install` (it brings both) or set FFMPEG_PATH / FFPROBE_PATH',
      });
      expect(body.checks.find((c: any) => c.name === 'engine:fr')).toMatchObject({
        ok: false,
        message: expect.stringContaining("no Moonshine model for 'fr'"),
      });
      expect(body.checks.find((c: any) => c.name === 'engine:en')).toEqual({ name: 'engine:en', ok: true });
    } finally {
      await broken.stop();
    }
  });

  test('GET /metrics needs METRICS_TOKEN when set', async () => {
    expect((await fetch(`${svc.url}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${svc.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-000000000' } })).status,
    ).toBe(401);
    const res = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
  });

  test('GET /metrics counts intake outcomes by code, requests by route and status, and the waiting jobs, with Node defaults', async () => {
    const before = await metrics();
    const s = await seedAccount(svc);
    const file = await makeStereoCall([{ speaker: 'agent', voice: 'en', text: 'Hello.' }]);
    expect((await postCall(svc.url, { file: { path: file, name: 'a.wav' } })).status).toBe(401);
    const created = await postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', external_id: 'm-1' },
      file: { path: file, name: 'a.wav' },
    });
    expect(created.status).toBe(201);
    const again = await postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', external_id: 'm-1' },
      file: { path: file, name: 'a.wav' },
    });
    expect(again.status).toBe(200);
    expect(
      (await postCall(svc.url, { key: s.key, fields: { agent_name: 'Nobody' }, file: { path: file, name: 'a.wav' } }))
        .status,
    ).toBe(422);

    const after = await metrics();
    const delta = (series: string) => value(after, series) - value(before, series);
    expect(delta('escucha_intake_outcomes_total{code="unauthorized"}')).toBe(1);
    expect(delta('escucha_intake_outcomes_total{code="queued"}')).toBe(1);
    expect(delta('escucha_intake_outcomes_total{code="exists"}')).toBe(1);
    expect(delta('escucha_intake_outcomes_total{code="unknown_agent"}')).toBe(1);
    expect(delta('escucha_http_requests_total{route="POST /v1/calls",status="201"}')).toBe(1);
    expect(delta('escucha_http_requests_total{route="POST /v1/calls",status="401"}')).toBe(1);
    expect(delta('escucha_http_request_duration_seconds_count{route="POST /v1/calls"}')).toBe(4);
    // No worker runs in this process: the call's transcription job waits.
    expect(value(after, 'escucha_jobs_waiting{task="transcribe"}')).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    for (const name of [
      'escucha_job_duration_seconds',
      'escucha_transcription_realtime_factor',
      'escucha_webhook_attempts_total',
    ])
      expect(after).toContain(`# TYPE ${name} `);
  });
});
