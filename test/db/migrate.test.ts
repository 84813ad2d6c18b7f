import { migrate } from '../../src/db/migrate.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, test } from '../support/harness.ts';

let t: TestDb;
test.beforeAll(async ({ db }) => {
  t = db;
});

describe('migrations', () => {
  test('records every applied migration in _prisma_migrations the way prisma migrate deploy does', async () => {
    const rows = await t.sql('SELECT migration_name, finished_at, applied_steps_count FROM _prisma_migrations');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.finished_at).not.toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
  });

  test('is idempotent: a second run applies nothing', async () => {
    const report = await migrate(t.url);
    expect(report.applied).toEqual([]);
    expect(report.alreadyApplied).toBeGreaterThan(0);
  });

  test('installs graphile-worker so jobs can be enqueued inside our transactions', async () => {
    const rows = await t.sql(
      "SELECT count(*)::int AS n FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'graphile_worker' AND p.proname = 'add_job'",
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });
});
