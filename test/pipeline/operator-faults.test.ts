// Issue 9 point 2: an operator's fault never fails a customer's call. With the models folder gone while
// the service runs, new calls stay queued and /readyz says what is wrong; once it is back they finish
// by themselves, without a restart.
import { mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveModelsDir } from '../../src/transcription/models.ts';
import { makeStereoCall } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { expect, testWithService } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';

const sharedModels = resolveModelsDir();
// The models folder the service is given, made before it starts: a link to the shared English model.
const modelsDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-models-'));
const modelLink = path.join(modelsDir, 'moonshine-base-en');
symlinkSync(path.join(sharedModels, 'moonshine-base-en'), modelLink);

const test = testWithService({
  worker: true,
  env: { MODELS_DIR: modelsDir, MOONSHINE_LANGUAGES: 'en', OPERATOR_RETRY_MAX_SECONDS: '1' },
});
let t: TestDb;
let svc: TestService;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
}, 60_000);
test.afterAll(() => rmSync(modelsDir, { recursive: true, force: true }));

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const readyz = async () => {
  const res = await fetch(`${svc.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; checks: any[] } };
};

test('models folder removed while running: calls wait queued (never failed), /readyz is 503 naming it; put back, they finish', async () => {
  expect((await readyz()).status).toBe(200);
  const s = await seedAccount(svc);
  const file = await makeStereoCall([{ speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling Acme.' }]);

  unlinkSync(modelLink); // the operator removes the models
  const ready = await readyz();
  expect(ready.status).toBe(503);
  expect(ready.body.status).toBe('not_ready');
  expect(ready.body.checks).toContainEqual({
    name: 'engine:en',
    ok: false,
    message: expect.stringContaining(`no Moonshine model for 'en' in ${modelsDir}`),
  });
  expect(ready.body.checks.find((c) => c.name === 'database')).toEqual({ name: 'database', ok: true });

  const ids: string[] = [];
  for (const language of ['en', '']) {
    const r = await postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', ...(language ? { language } : {}) },
      file: { path: file, name: 'call.wav' },
    });
    expect(r.status).toBe(201);
    ids.push(r.body.id);
  }
  // Each call is tried, meets the missing model, and goes back to the queue at least twice.
  for (const id of ids) {
    await until('two waits', async () => {
      const rows = await t.sql(
        `SELECT count(*)::int AS n FROM call_events WHERE call_id = $1 AND status = 'queued' AND detail LIKE 'waiting for the service:%'`,
        [id],
      );
      return rows[0].n >= 2 ? true : undefined;
    });
  }
  const waiting = await t.sql(`SELECT status, failure_reason FROM calls WHERE id = ANY($1::uuid[])`, [ids]);
  for (const row of waiting) expect(['queued', 'transcribing']).toContain(row.status);
  expect(waiting.every((r) => r.failure_reason === null)).toBe(true);
  const [event] = await t.sql(
    `SELECT detail FROM call_events WHERE call_id = $1 AND detail LIKE 'waiting%' ORDER BY at DESC LIMIT 1`,
    [ids[0]],
  );
  expect(event.detail).toContain("The Moonshine model for 'en' is not in");

  symlinkSync(path.join(sharedModels, 'moonshine-base-en'), modelLink); // … and puts them back
  expect((await readyz()).status).toBe(200);
  for (const id of ids) {
    const row = await until('the call to finish', async () => {
      const [r] = await t.sql('SELECT status, segments FROM calls WHERE id = $1', [id]);
      return ['transcribed', 'analyzed', 'failed'].includes(r.status) ? r : undefined;
    });
    expect(row.status).toBe('transcribed');
    expect(JSON.stringify(row.segments).toLowerCase()).toContain('calling');
  }
}, 240_000);
