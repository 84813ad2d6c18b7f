// Faults lose nothing: PostgreSQL restarting under a running service (api + worker).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadEmbeddedPostgres } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { makeStereoCall } from '../fixtures/audio.ts';
import { expect, test } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import { seedAccount, startTestService, type TestService } from '../support/service.ts';

let server: InstanceType<Awaited<ReturnType<typeof loadEmbeddedPostgres>>>;
let dir: string;
let url: string;
let svc: TestService;

test.beforeAll(async () => {
  // A server of its own: this test stops and starts it, which must not disturb other test files.
  dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-restart-'));
  const port = 56000 + (process.pid % 2000);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await migrate(url);
  svc = await startTestService({ url }, { worker: true, env: { WORKER_STALE_SECONDS: '5' } });
}, 120_000);

test.afterAll(async () => {
  await svc?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function status(id: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query('SELECT status FROM calls WHERE id = $1', [id])).rows[0]?.status;
  } finally {
    await c.end();
  }
}

async function until(check: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('a database restart loses nothing: calls accepted before it finish, intake answers 500 during it, and works after it', async ({
  receiver: newReceiver,
}) => {
  const receiver = await newReceiver();
  const s = await seedAccount(svc);
  const tpl = await createTemplate(svc.app.db, s.account.id, {
    name: 'QA',
    definition: {
      version: 1,
      criteria: [{ key: 'hello', label: 'Hello', kind: 'phrase', phrases: ['thank you for calling'], weight: 1 }],
      topics: [],
    },
  });
  await setDefaultTemplate(svc.app.db, s.account.id, tpl.id);
  await setWebhookEndpoint(svc.app, s.account.id, receiver.url);
  const file = await makeStereoCall([
    { speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling Acme. How can I help you today?' },
  ]);
  const send = (id: string) =>
    postCall(svc.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', external_id: id },
      file: { path: file, name: 'call.wav' },
    });

  const before = await send('before');
  expect(before.status).toBe(201);

  await server.stop();
  const during = await send('during');
  expect(during.status).toBe(500);
  expect(during.body.error.code).toBe('internal_error');
  expect(svc.storedFiles().filter((f) => f.startsWith('.incoming'))).toEqual([]);
  await server.start();

  // The client retries the refused request with the same external_id: created now, once.
  let retried = await send('during');
  await until(async () => {
    retried = await send('during');
    return retried.status !== 500;
  }, 30_000);
  expect([201, 200]).toContain(retried.status);
  const after = await send('after');
  expect(after.status).toBe(201);

  for (const id of [before.body.id, retried.body.id, after.body.id]) {
    await until(async () => (await status(id)) === 'analyzed', 120_000);
  }
  await receiver.waitFor(3, 60_000);
  const ids = receiver.received.map((r) => JSON.parse(r.body).data.id);
  expect(new Set(ids)).toEqual(new Set([before.body.id, retried.body.id, after.body.id]));
}, 300_000);
