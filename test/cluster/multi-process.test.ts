// Several machines: 2 api and 2 worker processes (the real entry point, `src/main.ts --role …`) on one
// PostgreSQL and one S3-protocol store. 100 calls go in through both apis, some sent twice with the
// same external_id; one worker is killed with SIGKILL mid-run. Every call ends analyzed once, is
// charged once, carries one webhook event id, and the bucket holds exactly the calls' recordings.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { createLogger } from '../../src/log.ts';
import { createStorage } from '../../src/storage/index.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { makeStereoCall } from '../fixtures/audio.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { postCall } from '../support/intake.ts';
import { startReceiver } from '../support/receiver.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';
import { seedAccount, testConfig } from '../support/service.ts';

// CLUSTER_TEST_CALLS lowers the count on a machine too busy to transcribe 100 calls in the time bound.
const CALLS = Number(process.env.CLUSTER_TEST_CALLS ?? 100);
/** Calls whose external_id is sent a second time, through the other api, at the same moment. */
const DUPLICATED = Math.ceil(CALLS / 5);
const repoRoot = path.resolve(import.meta.dirname, '../..');

interface Proc {
  role: 'api' | 'worker';
  child: ChildProcess;
  dataDir: string;
  /** The api's address, once it listens. */
  url: string;
  exited: Promise<number | null>;
}

let t: TestDb;
let s3: TestS3;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let app: AppContext;
const procs: Proc[] = [];
const problems: string[] = [];

/** Starts `src/main.ts --role <role>` and resolves once it says it is ready (its pino log on stdout). */
function startProcess(role: 'api' | 'worker', env: Record<string, string>): Promise<Proc> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `escucha-${role}-`));
  const child = spawn(process.execPath, ['src/main.ts', '--role', role], {
    cwd: repoRoot,
    env: { ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Known at once, so afterAll stops it even if it never gets ready.
  const proc: Proc = { role, child, dataDir, url: '', exited };
  procs.push(proc);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  child.stdout!.on('data', (d) => {
    // Errors of the processes, quoted when the test fails.
    for (const line of String(d).split('\n')) if (/"level":(50|60)/.test(line)) problems.push(line.slice(0, 600));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} did not start in 240 s: ${stderr}`)), 240_000);
    void exited.then((code) => reject(new Error(`${role} exited with ${code} while starting: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: { msg?: string; url?: string };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      const ready = role === 'api' ? entry.msg === 'api listening' : entry.msg === 'worker running';
      if (!ready) return;
      clearTimeout(timer);
      proc.url = entry.url ?? '';
      resolve(proc);
    });
  });
}

beforeAll(async () => {
  t = await createTestDb();
  s3 = await startTestS3('cluster');
  receiver = await startReceiver();
  const config = testConfig(t, s3.env);
  app = { config, db: t.db, log: createLogger('silent'), storage: createStorage(config) };
}, 120_000);

afterAll(async () => {
  for (const p of procs) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  }
  await Promise.all(procs.map((p) => p.exited));
  for (const p of procs) rmSync(p.dataDir, { recursive: true, force: true });
  rmSync(app?.config.dataDir ?? '/nonexistent', { recursive: true, force: true });
  await receiver?.close();
  await s3?.stop();
  await t?.drop();
}, 60_000);

async function until(what: string, check: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) {
      const states = await t.sql('SELECT status, failure_detail, count(*)::int AS n FROM calls GROUP BY 1, 2');
      throw new Error(
        `timed out waiting for ${what}: calls ${JSON.stringify(states)}; errors logged:\n${problems.slice(-5).join('\n')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
const count = async (sql: string, params: unknown[] = []) => (await t.sql<{ n: number }>(sql, params))[0]!.n;

it('2 apis + 2 workers, one worker SIGKILLed: every call analyzed once, charged once, one event id, no orphan object', async () => {
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: t.url,
    APP_SECRET: app.config.appSecret,
    PUBLIC_URL: 'https://escucha.test',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '500,1000,2000',
    WORKER_CONCURRENCY: '1',
    // The killed worker's job is handed to the other one this soon.
    WORKER_STALE_SECONDS: '5',
    INTAKE_RATE_PER_MINUTE: '1000',
    ...s3.env,
  };
  const [api1, api2, worker1] = await Promise.all([
    startProcess('api', env),
    startProcess('api', env),
    startProcess('worker', env),
    startProcess('worker', env),
  ]);

  const seeded = await seedAccount({ app });
  const accountId = seeded.account.id;
  const tpl = await createTemplate(app.db, accountId, {
    name: 'QA',
    definition: {
      version: 1,
      criteria: [{ key: 'hello', label: 'Thanks for calling', kind: 'phrase', phrases: ['thank you'], weight: 1 }],
      topics: [],
    },
  });
  await setDefaultTemplate(app.db, accountId, tpl.id);
  await setWebhookEndpoint(app, accountId, receiver.url);
  // About two seconds of speech: enough to transcribe, light enough for 100 on two cores.
  const audio = await makeStereoCall([{ speaker: 'agent', voice: 'en', text: 'Hello, thank you for calling.' }]);

  const send = (url: string, i: number) =>
    postCall(url, {
      key: seeded.key,
      fields: { agent_code: 'AG-07', external_id: `ext-${i}` },
      file: { path: audio, name: `call-${i}.wav` },
    });
  const analyzed = () => count(`SELECT count(*)::int AS n FROM calls WHERE status = 'analyzed'`);

  let killed = false;
  const answers: { i: number; status: number; id: string; state: string }[] = [];
  for (let i = 0; i < CALLS; i += 5) {
    const batch = [];
    for (let j = i; j < i + 5; j++) {
      const apis = j % 2 ? [api1!, api2!] : [api2!, api1!];
      batch.push(send(apis[0]!.url, j).then((r) => ({ i: j, ...r })));
      if (j < DUPLICATED) batch.push(send(apis[1]!.url, j).then((r) => ({ i: j, ...r })));
    }
    for (const r of await Promise.all(batch))
      answers.push({ i: r.i, status: r.status, id: r.body.id, state: r.body.status });
    // Mid-run: some calls are done, many are queued, one may be in this worker's hands.
    if (!killed && (await analyzed()) >= 5) {
      worker1!.child.kill('SIGKILL');
      killed = true;
    }
  }
  if (!killed) {
    await until('the first analyzed calls', async () => (await analyzed()) >= 5, 300_000);
    worker1!.child.kill('SIGKILL');
  }
  expect(await worker1!.exited).toBeNull();

  // Intake: one call per external_id; the duplicate got the same call, one of the two as `exists`.
  expect(answers.every((a) => a.status === 201 || a.status === 200)).toBe(true);
  for (let i = 0; i < CALLS; i++) {
    const mine = answers.filter((a) => a.i === i);
    expect(new Set(mine.map((a) => a.id)).size).toBe(1);
    expect(mine.filter((a) => a.state === 'queued')).toHaveLength(1);
  }
  expect(await count('SELECT count(*)::int AS n FROM calls')).toBe(CALLS);

  await until('every call analyzed', async () => (await analyzed()) === CALLS, 600_000);
  await until(
    'a webhook for every call',
    async () => new Set(receiver.received.map((r) => JSON.parse(r.body).data.id)).size === CALLS,
    120_000,
  );

  // Analyzed exactly once: one `analyzed` step in each call's history.
  expect(
    await t.sql(`SELECT call_id FROM call_events WHERE status = 'analyzed' GROUP BY call_id HAVING count(*) <> 1`),
  ).toEqual([]);
  expect(await count(`SELECT count(DISTINCT call_id)::int AS n FROM call_events WHERE status = 'analyzed'`)).toBe(
    CALLS,
  );
  // Charged once: one reservation and one settlement per call, nothing released.
  expect(await t.sql(`SELECT kind, count(*)::int AS n FROM minute_ledger GROUP BY kind ORDER BY kind`)).toEqual([
    { kind: 'reserve', n: CALLS },
    { kind: 'settle', n: CALLS },
  ]);
  expect(
    await t.sql(
      `SELECT u.minutes_used - (SELECT sum(minutes) FROM minute_ledger WHERE kind = 'settle')::int AS off, u.calls
       FROM usage_totals u`,
    ),
  ).toEqual([{ off: 0, calls: CALLS }]);
  // One webhook event id per call, however many times it was delivered.
  const eventIds = new Map<string, Set<string>>();
  for (const r of receiver.received) {
    const callId = JSON.parse(r.body).data.id as string;
    eventIds.set(callId, (eventIds.get(callId) ?? new Set()).add(String(r.headers['webhook-id'])));
  }
  expect([...eventIds.values()].filter((ids) => ids.size !== 1)).toEqual([]);

  // Storage: exactly one object per call, none that no call owns.
  const keys: string[] = [];
  for await (const o of app.storage.list()) keys.push(o.key);
  const owned = (await t.sql<{ storage_key: string }>('SELECT storage_key FROM calls')).map((r) => r.storage_key);
  expect(keys.sort()).toEqual(owned.sort());
}, 1_200_000);
