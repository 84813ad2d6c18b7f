// transition(): the one place a call's status changes — guarded by the expected status, with its
// history row and the live-update notification, or nothing at all.
import pg from 'pg';
import { CALL_UPDATED_CHANNEL } from '../../src/lifecycle/updates.ts';
import { transition } from '../../src/lifecycle/transition.ts';
import { enqueue } from '../../src/jobs/catalog.ts';
import type { TestDb } from '../support/db.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
let svc: TestService;
let key: string;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
  ({ key } = await seedAccount(svc));
});

async function newCall(): Promise<string> {
  const res = await postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07' },
    file: { blob: wavBlob(4096), name: 'a.wav' },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}
const history = async (id: string) =>
  (await t.sql('SELECT status, detail FROM call_events WHERE call_id = $1 ORDER BY id', [id])).map(
    (e) => `${e.status}: ${e.detail}`,
  );
const statusOf = async (id: string) => (await t.sql('SELECT status FROM calls WHERE id = $1', [id]))[0]?.status;

describe('transition', () => {
  test('intake creates the call through it: one queued history row and one transcribe job', async () => {
    const id = await newCall();
    expect(await history(id)).toEqual(['queued: accepted via api']);
    const jobs = await t.sql(
      "SELECT k.identifier, j.max_attempts, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id WHERE j.key = 'transcribe:' || $1",
      [id],
    );
    expect(jobs).toEqual([{ identifier: 'transcribe', max_attempts: 8, payload: { callId: id } }]);
  });

  test('moves the call, writes the history and notifies live subscribers, once however often it is run', async () => {
    const id = await newCall();
    const listener = new pg.Client({ connectionString: t.url });
    await listener.connect();
    const notified = new Promise<string>((resolve) =>
      listener.on('notification', (n) => {
        if (n.payload?.includes(id) && n.payload.includes('transcribing')) resolve(n.payload);
      }),
    );
    await listener.query(`LISTEN ${CALL_UPDATED_CHANNEL}`);
    try {
      const runs = await Promise.all(
        [1, 2, 3].map(() =>
          svc.app.db.$transaction((tx) => transition(tx, id, 'queued', 'transcribing', { detail: 'attempt 1' })),
        ),
      );
      expect(runs.filter(Boolean)).toHaveLength(1);
      expect(await statusOf(id)).toBe('transcribing');
      expect(await history(id)).toEqual(['queued: accepted via api', 'transcribing: attempt 1']);
      expect(JSON.parse(await notified)).toMatchObject({ id, status: 'transcribing' });
    } finally {
      await listener.end();
    }
  });

  test('changes nothing when the call is not in the expected status, or a further guard fails', async () => {
    const id = await newCall();
    const moved = await svc.app.db.$transaction((tx) =>
      transition(tx, id, 'transcribing', 'failed', { detail: 'undecodable', data: { failureReason: 'undecodable' } }),
    );
    expect(moved).toBe(false);
    const guarded = await svc.app.db.$transaction((tx) =>
      transition(tx, id, 'queued', 'transcribing', { detail: 'x', where: { analysisRevision: 99 } }),
    );
    expect(guarded).toBe(false);
    expect(await statusOf(id)).toBe('queued');
    expect(await history(id)).toEqual(['queued: accepted via api']);
  });

  test('refuses a move the diagram does not have, and rolls back what the transaction did before it', async () => {
    const id = await newCall();
    const attempt = svc.app.db.$transaction(async (tx) => {
      await enqueue(tx, 'analyze', { callId: id });
      // @ts-expect-error queued → analyzed is not an arrow of the diagram: the compiler says so too.
      await transition(tx, id, 'queued', 'analyzed', { detail: 'skipping ahead' });
    });
    await expect(attempt).rejects.toThrow('call status cannot go from queued to analyzed');
    expect(await statusOf(id)).toBe('queued');
    expect(await t.sql("SELECT 1 FROM graphile_worker._private_jobs WHERE key = 'analyze:' || $1", [id])).toEqual([]);
  });
});

describe('enqueue', () => {
  test("checks the payload against the catalog's schema before queuing anything", async () => {
    const attempt = svc.app.db.$transaction((tx) => enqueue(tx, 'analyze', { callId: 'not-a-uuid' }));
    await expect(attempt).rejects.toThrow(/callId/);
    expect(await t.sql("SELECT 1 FROM graphile_worker._private_jobs WHERE key = 'analyze:not-a-uuid'")).toEqual([]);
  });
});

describe('transactions', () => {
  test("read a call's relations inside a transaction one query at a time (pg never sees overlapping queries)", async () => {
    const id = await newCall();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const call = await svc.app.db.$transaction((tx) =>
        tx.call.findUniqueOrThrow({
          where: { id },
          select: { id: true, agent: { select: { name: true } }, account: { select: { name: true } }, events: true },
        }),
      );
      expect(call.agent.name).toBe('Ana García');
      await new Promise((resolve) => setImmediate(resolve)); // deprecation warnings are emitted on the next tick
      expect(warnings.filter((m) => m.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
