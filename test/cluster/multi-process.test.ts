// Several machines: 2 api and 2 worker processes (the real entry point, `src/main.ts --role …`) on one
// PostgreSQL and one S3-protocol store. 100 calls go in through both apis, some sent twice with the
// same external_id; one worker is killed with SIGKILL mid-run. Every call ends analyzed once, is
// charged once, carries one webhook event id, and the bucket holds exactly the calls' recordings.
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import { makeStereoCall } from '../fixtures/audio.ts';
import type { TestDb } from '../support/db.ts';
import { expect, test } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import type { ServiceProcess } from '../support/process.ts';

// CLUSTER_TEST_CALLS lowers the count on a machine too busy to transcribe 100 calls in the time bound.
const CALLS = Number(process.env.CLUSTER_TEST_CALLS ?? 100);
/** Calls whose external_id is sent a second time, through the other api, at the same moment. */
const DUPLICATED = Math.ceil(CALLS / 5);

let t: TestDb;
const procs: ServiceProcess[] = [];
/** Errors the processes logged, quoted when the test fails. */
const problems = () =>
  procs.flatMap((p) => p.logs.filter((l) => l.level >= 50).map((l) => JSON.stringify(l).slice(0, 600)));

test.beforeAll(({ db }) => {
  t = db;
});

async function until(what: string, check: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) {
      const states = await t.sql('SELECT status, failure_detail, count(*)::int AS n FROM calls GROUP BY 1, 2');
      throw new Error(
        `timed out waiting for ${what}: calls ${JSON.stringify(states)}; errors logged:\n${problems().slice(-5).join('\n')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
const count = async (sql: string, params: unknown[] = []) => (await t.sql<{ n: number }>(sql, params))[0]!.n;

test('2 apis + 2 workers, one worker SIGKILLed: every call analyzed once, charged once, one event id, no orphan object', async ({
  app,
  seed,
  s3,
  serviceProcess,
  receiver: newReceiver,
}) => {
  const receiver = await newReceiver();
  const env = {
    WEBHOOK_RETRY_SCHEDULE: '500,1000,2000',
    WORKER_CONCURRENCY: '1',
    // The killed worker's job is handed to the other one this soon.
    WORKER_STALE_SECONDS: '5',
    INTAKE_RATE_PER_MINUTE: '1000',
    ...s3.env,
  };
  // Each on a machine of its own: its own DATA_DIR, the recordings in the one S3 store.
  const startProcess = async (role: 'api' | 'worker') => {
    const p = await serviceProcess({ args: ['--role', role], env, ownDataDir: true, readyMs: 240_000 });
    procs.push(p);
    return p;
  };
  const [api1, api2, worker1] = await Promise.all([
    startProcess('api'),
    startProcess('api'),
    startProcess('worker'),
    startProcess('worker'),
  ]);

  const seeded = await seed();
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
  expect(await worker1!.exited).toBe('SIGKILL');

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
  const owned = (await t.sql<{ storage_key: string }>('SELECT storage_key FROM calls')).map((r) => r.storage_key);
  expect(await s3.keys()).toEqual(owned.sort());
}, 1_200_000);
