// Reports (issue 10.5): rollups kept by triggers equal a direct aggregate of the calls after any
// sequence of intake, review, re-analysis, deletion and time zone changes; the GraphQL queries
// answer from them with the account's days, the filters and the language-mismatch flag; CSV.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NONE_ID } from '../../src/domain/reports.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import { seedAccount, startGraphql, type Harness } from './support.ts';

let t: TestDb;
let h: Harness;

beforeAll(async () => {
  t = await createTestDb();
  h = await startGraphql(t);
});
afterAll(async () => {
  await h?.close();
  await t?.drop();
});

// What a call contributes, written independently of the triggers' SQL.
const KEYS = `(c.started_at AT TIME ZONE a.time_zone)::date::text AS day, c.agent_id::text AS agent,
  coalesce(c.campaign_id::text, '${NONE_ID}') AS campaign, coalesce(c.template_id::text, '${NONE_ID}') AS template,
  coalesce(c.language, c.detected_language, '') AS language, c.language_mismatch AS mismatch`;
const SCORED = `FROM calls c JOIN accounts a ON a.id = c.account_id
  WHERE c.account_id = $1 AND c.status = 'analyzed' AND c.score IS NOT NULL`;
const CRIT_FAIL = `EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(c.criteria, '[]')) e
  WHERE e->>'result' = 'failed' AND (e->>'critical')::boolean)`;

async function direct(accountId: string) {
  const days = await t.sql(
    `SELECT ${KEYS}, count(*)::int AS calls, trim_scale(sum(c.score::numeric))::text AS score_sum,
            trim_scale(coalesce(sum(c.coverage::numeric), 0))::text AS coverage_sum, count(c.coverage)::int AS coverage_calls,
            (count(*) FILTER (WHERE ${CRIT_FAIL}))::int AS critical_fails,
            array_agg(least(9, floor(c.score / 10))::int ORDER BY least(9, floor(c.score / 10))) AS bands
       ${SCORED} GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
    [accountId],
  );
  const criteria = await t.sql(
    `SELECT ${KEYS}, e->>'key' AS criterion, (count(*) FILTER (WHERE e->>'result' = 'passed'))::int AS passed,
            (count(*) FILTER (WHERE e->>'result' = 'failed'))::int AS failed,
            (count(*) FILTER (WHERE e->>'result' = 'na'))::int AS na,
            (count(*) FILTER (WHERE e->>'result' = 'failed' AND (e->>'critical')::boolean))::int AS critical_fails
       FROM calls c JOIN accounts a ON a.id = c.account_id CROSS JOIN jsonb_array_elements(coalesce(c.criteria, '[]')) e
      WHERE c.account_id = $1 AND c.status = 'analyzed' AND c.score IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    [accountId],
  );
  const topics = await t.sql(
    `SELECT ${KEYS}, c.topic, count(*)::int AS calls ${SCORED} AND c.topic IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    [accountId],
  );
  return { days, criteria, topics };
}

const RKEYS = `day::text AS day, agent_id::text AS agent, campaign_id::text AS campaign, template_id::text AS template,
  language, language_mismatch AS mismatch`;

async function kept(accountId: string) {
  const days = await t.sql(
    `SELECT ${RKEYS}, calls, trim_scale(score_sum)::text AS score_sum, trim_scale(coverage_sum)::text AS coverage_sum,
            coverage_calls, critical_fails,
            array_cat(array_cat(array_cat(array_fill(0, ARRAY[band_0]), array_fill(1, ARRAY[band_1])),
                      array_cat(array_fill(2, ARRAY[band_2]), array_fill(3, ARRAY[band_3]))),
              array_cat(array_cat(array_cat(array_fill(4, ARRAY[band_4]), array_fill(5, ARRAY[band_5])),
                      array_cat(array_fill(6, ARRAY[band_6]), array_fill(7, ARRAY[band_7]))),
                      array_cat(array_fill(8, ARRAY[band_8]), array_fill(9, ARRAY[band_9])))) AS bands
       FROM report_days WHERE account_id = $1 AND calls <> 0 ORDER BY 1, 2, 3, 4, 5, 6`,
    [accountId],
  );
  const criteria = await t.sql(
    `SELECT ${RKEYS}, criterion, passed, failed, na, critical_fails FROM report_criteria_days
      WHERE account_id = $1 AND passed + failed + na <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    [accountId],
  );
  const topics = await t.sql(
    `SELECT ${RKEYS}, topic, calls FROM report_topic_days WHERE account_id = $1 AND calls <> 0
      ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    [accountId],
  );
  // Rows emptied by removals hold nothing but zeros.
  const [stale] = await t.sql(
    `SELECT (SELECT count(*) FROM report_days WHERE account_id = $1 AND calls = 0
               AND (score_sum <> 0 OR coverage_sum <> 0 OR coverage_calls <> 0 OR critical_fails <> 0
                    OR band_0 + band_1 + band_2 + band_3 + band_4 + band_5 + band_6 + band_7 + band_8 + band_9 <> 0))
          + (SELECT count(*) FROM report_criteria_days WHERE account_id = $1 AND passed + failed + na = 0
               AND critical_fails <> 0)::int AS n`,
    [accountId],
  );
  expect(Number(stale.n)).toBe(0);
  return { days, criteria, topics };
}

const criterion = fc.record({
  key: fc.constantFrom('greeting', 'no_rudeness', 'resolved'),
  result: fc.constantFrom('passed', 'failed', 'na'),
  critical: fc.boolean(),
});
const criteriaArb = fc
  .uniqueArray(criterion, { selector: (c) => c.key, maxLength: 3 })
  .map((list) =>
    list.map((c) => ({
      ...c,
      label: c.key,
      kind: 'phrase',
      points: c.result === 'passed' ? 1 : 0,
      max_points: c.result === 'na' ? 0 : 1,
      evidence: [],
    })),
  );
const scoreArb = fc.option(fc.integer({ min: 0, max: 1000 }).map((n) => n / 10));
const coverageArb = fc.option(fc.integer({ min: 0, max: 26 }).map((n) => n / 26));

describe('rollups kept by triggers', () => {
  it('equal a direct aggregate after any sequence of intake, review, re-analysis, deletion and zone changes', async () => {
    const acme = await seedAccount(h, 'Acme');
    const accountId = acme.account.id;
    const agents = await Promise.all(
      ['Ana', 'Luis'].map((name) =>
        h.app.db.agent.create({ data: { accountId, name, nameNormalized: name.toLowerCase() } }),
      ),
    );
    const campaign = await h.app.db.campaign.create({ data: { accountId, name: 'C', nameNormalized: 'c' } });
    const template = await h.app.db.template.create({
      data: { accountId, name: 'T', definition: { version: 1, criteria: [], topics: [] } },
    });
    const STATUSES = ['queued', 'analyzing', 'analyzed', 'analyzed', 'transcribed', 'failed'] as const;
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('intake' as const),
        n: fc.integer({ min: 1, max: 3 }),
        status: fc.constantFrom(...STATUSES),
        agent: fc.integer({ min: 0, max: 1 }),
        campaign: fc.boolean(),
        template: fc.boolean(),
        // Minutes around midnight UTC, so the account's zone decides the day.
        minute: fc.integer({ min: -600, max: 600 }),
        topic: fc.constantFrom(null, 'Billing', 'Refund'),
        language: fc.constantFrom(null, 'en', 'es'),
        mismatch: fc.boolean(),
        score: scoreArb,
        coverage: coverageArb,
        criteria: criteriaArb,
      }),
      fc.record({ kind: fc.constant('review' as const), pick: fc.nat(), score: scoreArb, criteria: criteriaArb }),
      fc.record({
        kind: fc.constant('reanalysis' as const),
        pick: fc.nat(),
        score: scoreArb,
        coverage: coverageArb,
        criteria: criteriaArb,
        topic: fc.constantFrom(null, 'Billing', 'Sales'),
        mismatch: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('fields' as const),
        pick: fc.nat(),
        agent: fc.integer({ min: 0, max: 1 }),
        minute: fc.integer({ min: -600, max: 600 }),
        detected: fc.constantFrom(null, 'en', 'fr'),
      }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('zone' as const),
        zone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata'),
      }),
    );
    let seen = 0;
    const pickOne = `(SELECT id FROM calls WHERE account_id = $1 ORDER BY id OFFSET $2 % greatest(1, (SELECT count(*) FROM calls WHERE account_id = $1)) LIMIT 1)`;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const o of ops) {
          if (o.kind === 'intake') {
            // Several rows in one statement: the statement-level trigger must tally them all.
            await t.sql(
              `INSERT INTO calls (id, account_id, source, status, agent_id, campaign_id, template_id, started_at, language,
                                  topic, language_mismatch, score, coverage, criteria, file_name, file_size, file_sha256,
                                  content_type, storage_key, reserved_minutes, period)
               SELECT gen_random_uuid(), $1, 'api', $2::"CallStatus", $3, $4, $5,
                      timestamptz '2024-03-10 00:00Z' + $6 * interval '1 minute' + g * interval '7 minutes', $7, $8, $9,
                      $10, $11, $12::jsonb, 'f.wav', 1, 'x', 'audio/wav', 'k', 1, '2024-03'
                 FROM generate_series(1, $13::int) g`,
              [
                accountId,
                o.status,
                agents[o.agent]!.id,
                o.campaign ? campaign.id : null,
                o.template ? template.id : null,
                o.minute,
                o.language,
                o.topic,
                o.mismatch,
                o.score,
                o.coverage,
                JSON.stringify(o.criteria),
                o.n,
              ],
            );
          } else if (o.kind === 'review') {
            // An analyst overrides criteria: score and criteria change in place.
            await t.sql(`UPDATE calls SET score = $3, criteria = $4::jsonb WHERE id = ${pickOne}`, [
              accountId,
              o.pick,
              o.score,
              JSON.stringify(o.criteria),
            ]);
          } else if (o.kind === 'reanalysis') {
            await t.sql(`UPDATE calls SET status = 'analyzing' WHERE id = ${pickOne} AND status = 'analyzed'`, [
              accountId,
              o.pick,
            ]);
            await t.sql(
              `UPDATE calls SET status = 'analyzed', score = $3, coverage = $4, criteria = $5::jsonb, topic = $6,
                      language_mismatch = $7
                WHERE id = ${pickOne} AND status = 'analyzing'`,
              [accountId, o.pick, o.score, o.coverage, JSON.stringify(o.criteria), o.topic, o.mismatch],
            );
          } else if (o.kind === 'fields') {
            await t.sql(
              `UPDATE calls SET agent_id = $3, started_at = timestamptz '2024-03-10 00:00Z' + $4 * interval '1 minute',
                      detected_language = $5
                WHERE id = ${pickOne}`,
              [accountId, o.pick, agents[o.agent]!.id, o.minute, o.detected],
            );
          } else if (o.kind === 'delete') {
            await t.sql(`DELETE FROM calls WHERE id = ${pickOne}`, [accountId, o.pick]);
          } else {
            await t.sql(`UPDATE accounts SET time_zone = $2 WHERE id = $1`, [accountId, o.zone]);
          }
        }
        const rollups = await kept(accountId);
        expect(rollups).toEqual(await direct(accountId));
        seen += rollups.days.length + rollups.criteria.length + rollups.topics.length;
      }),
      { numRuns: 30 },
    );
    // The runs did put scored calls in the reports (an always-empty comparison proves nothing).
    expect(seen).toBeGreaterThan(0);
    // Deleting a template or campaign moves its calls to "none"; deleting the account leaves nothing.
    await h.app.db.template.delete({ where: { id: template.id } });
    await h.app.db.campaign.delete({ where: { id: campaign.id } });
    expect(await kept(accountId)).toEqual(await direct(accountId));
    await h.app.db.account.delete({ where: { id: accountId } });
    const [left] = await t.sql(
      `SELECT (SELECT count(*) FROM report_days WHERE account_id = $1) + (SELECT count(*) FROM report_criteria_days
               WHERE account_id = $1) + (SELECT count(*) FROM report_topic_days WHERE account_id = $1) AS n`,
      [accountId],
    );
    expect(Number(left.n)).toBe(0);
  });
});
