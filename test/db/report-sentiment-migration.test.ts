// 20261126600000_report_sentiment on a database that has scored calls with sentiment already: the
// migration fills the new report_days columns from them (equal to a direct aggregate), keeps every
// figure that was there, leaves the criterion rollups alone, and the triggers count the next call.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

const MIGRATION = '20261126600000_report_sentiment';
const dir = path.resolve(import.meta.dirname, '../../prisma/migrations');
const name = `escucha_t_mig_${randomBytes(4).toString('hex')}`;
let admin: pg.Client;
let client: pg.Client;
let url: string;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  url = withDatabase(inject('adminDatabaseUrl'), name);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // The database as it was before this migration, recorded the way migrate() records it.
  await client.query(`CREATE TABLE _prisma_migrations (
      id varchar(36) PRIMARY KEY NOT NULL, checksum varchar(64) NOT NULL, finished_at timestamptz,
      migration_name varchar(255) NOT NULL, logs text, rolled_back_at timestamptz,
      started_at timestamptz NOT NULL DEFAULT now(), applied_steps_count integer NOT NULL DEFAULT 0)`);
  for (const m of readdirSync(dir)
    .filter((d) => d < MIGRATION)
    .sort()) {
    const sql = readFileSync(path.join(dir, m, 'migration.sql'), 'utf8');
    await client.query(sql);
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES (gen_random_uuid(), $1, $2, now(), 1)`,
      [createHash('sha256').update(sql).digest('hex'), m],
    );
  }
});
afterAll(async () => {
  await client?.end();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

const insertCall = (accountId: string, agentId: string, at: string, sentiment: number | null, trend: number | null) =>
  client.query(
    `INSERT INTO calls (id, account_id, source, status, agent_id, started_at, language, score, criteria,
                        customer_sentiment, customer_sentiment_trend, file_name, file_size, file_sha256, content_type,
                        storage_key, reserved_minutes, period)
     VALUES (gen_random_uuid(), $1, 'api', 'analyzed', $2, $3, 'en', 80,
             '[{"key": "greeting", "result": "passed", "critical": false}]', $4, $5, 'f.wav', 1, 'x', 'audio/wav',
             'k', 1, '2026-11')`,
    [accountId, agentId, at, sentiment, trend],
  );

describe(`migration ${MIGRATION}`, () => {
  it('fills the sentiment of the calls already scored, keeps the rest, and the triggers follow', async () => {
    const [{ id: accountId }] = (
      await client.query(`INSERT INTO accounts (id, name, time_zone) VALUES (gen_random_uuid(), 'Acme', 'Europe/Madrid')
                          RETURNING id`)
    ).rows;
    const [{ id: agentId }] = (
      await client.query(
        `INSERT INTO agents (id, account_id, name, name_normalized) VALUES (gen_random_uuid(), $1, 'Ana', 'ana')
         RETURNING id`,
        [accountId],
      )
    ).rows;
    await insertCall(accountId, agentId, '2026-11-02T10:00Z', 0.4, 0.6);
    await insertCall(accountId, agentId, '2026-11-02T11:00Z', -0.2, -0.1);
    await insertCall(accountId, agentId, '2026-11-03T10:00Z', null, null);
    const rows = (grain: string) =>
      client.query(`SELECT * FROM report_days WHERE account_id = $1 AND grain = $2 ORDER BY day`, [accountId, grain]);
    const before = (await rows('day')).rows;
    const criteriaBefore = (await client.query(`SELECT * FROM report_criteria_days ORDER BY day, grain`)).rows;
    expect(before.map((r) => r.calls)).toEqual([2, 1]);

    expect((await migrate(url)).applied).toContain(MIGRATION);

    const day = (await rows('day')).rows;
    // What was there is unchanged; the sentiment is now filled in.
    expect(
      day.map(
        ({
          customer_sentiment_sum,
          customer_sentiment_calls,
          customer_trend_calls,
          customer_improved,
          customer_worsened,
          ...r
        }) => r,
      ),
    ).toEqual(before);
    expect(
      day.map((r) => [
        r.customer_sentiment_sum,
        r.customer_sentiment_calls,
        r.customer_trend_calls,
        r.customer_improved,
        r.customer_worsened,
      ]),
    ).toEqual([
      ['0.2', 2, 2, 1, 1],
      ['0', 0, 0, 0, 0],
    ]);
    expect((await rows('month')).rows.map((r) => [r.calls, r.customer_sentiment_sum, r.customer_improved])).toEqual([
      [3, '0.2', 1],
    ]);
    expect((await client.query(`SELECT * FROM report_criteria_days ORDER BY day, grain`)).rows).toEqual(criteriaBefore);

    // The next call and a change of sentiment alone are tallied by the new triggers.
    await insertCall(accountId, agentId, '2026-11-03T11:00Z', 0.5, 0.3);
    await client.query(`UPDATE calls SET customer_sentiment_trend = 0.9 WHERE customer_sentiment_trend = -0.1`);
    expect(
      (await rows('month')).rows.map((r) => [
        r.calls,
        r.customer_sentiment_sum,
        r.customer_improved,
        r.customer_worsened,
      ]),
    ).toEqual([[4, '0.7', 3, 0]]);
  });
});
