import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { databaseBefore, type DatabaseBefore } from '../support/migrations.ts';

const MIGRATION = '20261126600000_report_sentiment';
let client: pg.Client;
let url: string;

let before: DatabaseBefore;

beforeAll(async () => {
  before = await databaseBefore(MIGRATION, inject('adminDatabaseUrl'));
  ({ url, client } = before);
});
afterAll(async () => {
  await before?.drop();
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
