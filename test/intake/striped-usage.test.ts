// Issue 29.5: intake counts a period's usage on stripes (migration usage_stripes) so one account's
// intakes stop queueing on one row. What must not change: a plan is never overspent, every accepted
// call is counted and reserved exactly once, and the figures read back are the same sums.
import pg from 'pg';
import { settleMinutes } from '../../src/accounts/usage.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, testWithService } from '../support/harness.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';

const test = testWithService({ env: { INTAKE_MAX_CONCURRENT_PER_KEY: '200', INTAKE_RATE_PER_MINUTE: '100000' } });
let t: TestDb;
let svc: TestService;

test.beforeAll(async ({ db, service }) => {
  t = db;
  svc = service;
});

const upload = (key: string, n: number) =>
  postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07', external_id: `s-${n}` },
    file: { blob: wavBlob(4096), name: 'call.wav' },
  });

async function totals(accountId: string) {
  const [u] = await t.sql(
    `SELECT calls, minutes_reserved AS reserved, minutes_used AS used, storage_bytes::int AS storage
       FROM usage_totals WHERE account_id = $1`,
    [accountId],
  );
  return u;
}

/** What the stripes may still admit without the period row: what they were granted and did not use. */
async function stripesRoom(accountId: string): Promise<number> {
  const [r] = await t.sql(
    'SELECT coalesce(sum(minutes_allotted - minutes_reserved), 0)::int AS room FROM usage_stripes WHERE account_id = $1',
    [accountId],
  );
  return r.room;
}

describe('striped usage counters', () => {
  test('concurrent uploads over many connections fill the plan exactly: no call past it, none refused short of it', async () => {
    const { account, key } = await seedAccount(svc, { minutes: 40 });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, n) => upload(key, n)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(40);
    expect(statuses.filter((s) => s === 402)).toHaveLength(20);
    expect(await totals(account.id)).toMatchObject({ calls: 40, reserved: 40, used: 0, storage: 40 * 4096 });
    const [ledger] = await t.sql(
      `SELECT count(*)::int AS n, count(DISTINCT call_id)::int AS calls FROM minute_ledger WHERE account_id = $1 AND kind = 'reserve'`,
      [account.id],
    );
    expect(ledger).toEqual({ n: 40, calls: 40 });
    // The refusal names what is left, summed over the stripes: nothing.
    const after = await upload(key, 999);
    expect(after.body.error.code).toBe('no_minutes');
    expect(after.body.error.message).toContain("only 0 of the plan's 40 minutes are available");
  });

  test('reservations of every size from 8 connections at once: never past the plan, every refusal exact', async () => {
    const { account } = await seedAccount(svc, { minutes: 600 });
    const period = '2026-11';
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const c = new pg.Client({ connectionString: t.url });
        await c.connect();
        return c;
      }),
    );
    const admitted: number[] = [];
    const refusedSizes: number[] = [];
    try {
      await Promise.all(
        clients.map(async (c, i) => {
          // Sizes 1..5 in an order of each connection's own: refusals of a big one while small ones still fit.
          for (let n = 0; ; n++) {
            const minutes = 1 + ((n * 7 + i * 3) % 5);
            const { rows } = await c.query<{ ok: boolean }>('SELECT usage_reserve($1, $2, $3, 100) AS ok', [
              account.id,
              period,
              minutes,
            ]);
            if (rows[0]!.ok) admitted.push(minutes);
            else {
              refusedSizes.push(minutes);
              if (minutes === 1) return;
            }
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    const reserved = admitted.reduce((a, b) => a + b, 0);
    const [u] = await t.sql('SELECT calls, minutes_reserved FROM usage_totals WHERE account_id = $1', [account.id]);
    expect(u).toEqual({ calls: admitted.length, minutes_reserved: reserved });
    // Not one minute past the plan, and the last refusals (of one minute) mean the plan is full.
    expect(reserved).toBe(600);
    expect(await stripesRoom(account.id)).toBe(0);
  });

  test('a call charged more than it reserved takes back what the stripes were granted', async () => {
    const { account, key } = await seedAccount(svc, { minutes: 1000 });
    const first = await Promise.all(Array.from({ length: 8 }, (_, n) => upload(key, n)));
    expect(first.every((a) => a.status === 201)).toBe(true);
    expect(await stripesRoom(account.id)).toBeGreaterThan(0);
    // Its real duration used 995 minutes: 1000 - 995 - 7 reserved leaves the plan 2 minutes short.
    await svc.app.db.$transaction((tx) => settleMinutes(tx, first[0]!.body.id, 995));
    expect(await stripesRoom(account.id)).toBe(0);
    expect(await totals(account.id)).toMatchObject({ calls: 8, reserved: 7, used: 995 });
    const after = await Promise.all(Array.from({ length: 4 }, (_, n) => upload(key, 100 + n)));
    expect(after.map((a) => a.status)).toEqual([402, 402, 402, 402]);
  });

  test('a lowered plan takes back what the stripes were granted under the old one', async () => {
    const { account, key } = await seedAccount(svc, { minutes: 1000 });
    const first = await Promise.all(Array.from({ length: 8 }, (_, n) => upload(key, n)));
    expect(first.every((a) => a.status === 201)).toBe(true);
    expect(await stripesRoom(account.id)).toBeGreaterThan(0);
    await svc.app.db.account.update({ where: { id: account.id }, data: { planMinutes: 10 } });
    expect(await stripesRoom(account.id)).toBe(0);
    const after = await Promise.all(Array.from({ length: 6 }, (_, n) => upload(key, 100 + n)));
    expect(after.filter((a) => a.status === 201)).toHaveLength(2);
    expect(await totals(account.id)).toMatchObject({ calls: 10, reserved: 10 });
  });
});
