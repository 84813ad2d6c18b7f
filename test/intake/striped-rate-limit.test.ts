// Issue 29.5: an account's requests per minute are counted on stripes (rate_take(), migration
// rate_limit_stripes) instead of all on one row. The limit must still mean exactly N per window,
// across connections and processes: no request past it, none refused short of it.
import pg from 'pg';
import type { TestDb } from '../support/db.ts';
import { expect, testWithService } from '../support/harness.ts';
import { postCall, wavBlob } from '../support/intake.ts';
import { seedAccount, type TestService } from '../support/service.ts';

const test = testWithService({ env: { INTAKE_RATE_PER_MINUTE: '30', INTAKE_MAX_CONCURRENT_PER_KEY: '200' } });
let t: TestDb;
let one: TestService;
let two: TestService;
test.beforeAll(async ({ db, service, serviceWith }) => {
  t = db;
  [one, two] = [service, await serviceWith()];
});

test('50 uploads at once over two apis: exactly 30 accepted, 20 refused with 429', async () => {
  const a = await seedAccount(one);
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, n) =>
      postCall((n % 2 ? two : one).url, {
        key: a.key,
        fields: { agent_code: 'AG-07' },
        file: { blob: wavBlob(), name: 'a.wav' },
      }),
    ),
  );
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(30);
  expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  expect(await t.sql('SELECT count(*)::int AS n FROM calls WHERE account_id = $1', [a.account.id])).toEqual([
    { n: 30 },
  ]);
});

/** `rate_take` from 8 connections at once until each is refused; the admitted count. */
async function fill(key: string, limit: number): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const c = new pg.Client({ connectionString: t.url });
      await c.connect();
      return c;
    }),
  );
  let admitted = 0;
  try {
    await Promise.all(
      clients.map(async (c) => {
        for (;;) {
          const { rows } = await c.query<{ points: number }>('SELECT points FROM rate_take($1, $2, 60000)', [
            key,
            limit,
          ]);
          if (rows[0]!.points > limit) return;
          admitted++;
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return admitted;
}

test('8 connections at once admit exactly the limit, then refuse until the window ends, then admit it again', async () => {
  expect(await fill('intake:exact', 500)).toBe(500);
  // Nothing left on any stripe: the next ones are refused too.
  expect(await fill('intake:exact', 500)).toBe(0);
  // The window ends (set as the database's clock will see it): a new one starts empty, and what
  // the stripes held of the old one is not carried over.
  await t.sql(`UPDATE rate_limits SET expire = 0 WHERE key = 'intake:exact'`);
  await t.sql(`UPDATE rate_limit_stripes SET expire = 0, allotted = allotted + 100 WHERE key = 'intake:exact'`);
  expect(await fill('intake:exact', 500)).toBe(500);
});
