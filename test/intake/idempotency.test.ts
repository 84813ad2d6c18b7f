// §4 "Idempotent retry" and PRODUCT's concurrency decision: one call, one charge, whatever the race.
import type { TestDb } from '../support/db.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { describe, expect, testWithService } from '../support/harness.ts';

// 50 uploads at once on one key: above INTAKE_MAX_CONCURRENT_PER_KEY's default, which is not under test here.
const test = testWithService({ env: { INTAKE_MAX_CONCURRENT_PER_KEY: '100' } });

let t: TestDb;
let svc: TestService;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
});

const send = (key: string, fields: Record<string, string>, size = 4096) =>
  postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07', ...fields },
    file: { blob: wavBlob(size), name: 'call.wav' },
  });

async function usage(accountId: string) {
  const [u] = await t.sql(
    'SELECT calls, minutes_reserved, storage_bytes::int AS storage FROM usage_totals WHERE account_id = $1',
    [accountId],
  );
  return u ?? { calls: 0, minutes_reserved: 0, storage: 0 };
}

describe('§4 Idempotent retry', () => {
  test('rule 1: a resend of a request that arrived answers 200 {status: "exists"} with the original id', async () => {
    const { key } = await seedAccount(svc);
    const first = await send(key, { external_id: 'crm-1' });
    const again = await send(key, { external_id: 'crm-1' });
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id, status: 'exists' } });
  });

  test('rule 1: a resend of a request that did not arrive creates the call (201)', async () => {
    const { key } = await seedAccount(svc);
    expect((await send(key, { external_id: 'never-arrived' })).status).toBe(201);
  });

  test('rule 2 / §3: the client is not charged twice; the resent file is discarded', async () => {
    const { key, account } = await seedAccount(svc);
    await send(key, { external_id: 'crm-2' }, 3 * 1_048_576);
    const before = await usage(account.id);
    const files = svc.storedFiles().length;
    await send(key, { external_id: 'crm-2' }, 3 * 1_048_576);
    expect(await usage(account.id)).toEqual(before);
    expect(svc.storedFiles().length).toBe(files);
  });

  test('rule 3: without external_id, every request creates a new call, even for an identical file', async () => {
    const { key, account } = await seedAccount(svc);
    const a = await send(key, {});
    const b = await send(key, {});
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect((await usage(account.id)).calls).toBe(2);
  });

  test('PRODUCT: external_id is unique per account, not globally', async () => {
    const one = await seedAccount(svc);
    const two = await seedAccount(svc);
    const a = await send(one.key, { external_id: 'shared-id' });
    const b = await send(two.key, { external_id: 'shared-id' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
  });

  test('PRODUCT: 50 concurrent requests with one external_id → one call, one reservation, one period count; the rest 200 exists with the same id', async () => {
    const { key, account } = await seedAccount(svc);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => send(key, { external_id: 'race-1' }, 1_500_000)),
    );
    const created = results.filter((r) => r.status === 201);
    const exists = results.filter((r) => r.status === 200);
    expect(created).toHaveLength(1);
    expect(exists).toHaveLength(49);
    expect(new Set(results.map((r) => r.body.id))).toEqual(new Set([created[0]!.body.id]));
    expect(exists.every((r) => r.body.status === 'exists')).toBe(true);
    expect(await t.sql('SELECT id FROM calls WHERE account_id = $1', [account.id])).toHaveLength(1);
    expect(await usage(account.id)).toEqual({ calls: 1, minutes_reserved: 2, storage: 1_500_000 });
    expect(await t.sql('SELECT kind FROM minute_ledger WHERE account_id = $1', [account.id])).toEqual([
      { kind: 'reserve' },
    ]);
    const [{ n }] = await t.sql('SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = $1', [
      `transcribe:${created[0]!.body.id}`,
    ]);
    expect(n).toBe(1);
    expect(svc.storedFiles().filter((f) => f.includes(created[0]!.body.id))).toHaveLength(1);
    expect(svc.storedFiles().filter((f) => f.startsWith('.incoming'))).toEqual([]);
  });

  test('PRODUCT: concurrent intakes never overspend the plan (no_minutes is exact under concurrency)', async () => {
    const { key, account } = await seedAccount(svc, { minutes: 10 });
    const results = await Promise.all(Array.from({ length: 20 }, () => send(key, {}, 1_500_000)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 402).every((r) => r.body.error.code === 'no_minutes')).toBe(true);
    expect((await usage(account.id)).minutes_reserved).toBe(10);
  });
});
