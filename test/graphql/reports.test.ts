// Reports (issue 10.5): rollups kept by triggers equal a direct aggregate of the calls after any
// sequence of intake, review, re-analysis, deletion and time zone changes; the GraphQL queries
// answer from them with the account's days, the filters and the language-mismatch flag; CSV. The disputes
// report counts openings and answers on their own days.
import fc from 'fast-check';
import { beforeAll } from 'vitest';
import { describe, expect } from '../support/harness.ts';
import { NONE_ID } from '../../src/reports/reports.ts';
import { REPORT_TABLES } from '../../src/reports/reports-csv.ts';
import { openDispute, resolveDispute } from '../../src/review/disputes.ts';
import type { TestDb } from '../support/db.ts';
import { parseCsv, signedIn } from '../http/support.ts';
import { seedAccount, type Harness, test } from './support.ts';

let t: TestDb;
let h: Harness;

test.beforeAll(async ({ db: testDb, gql }) => {
  t = testDb;
  h = gql;
});

// What a call contributes, written independently of the triggers' SQL.
// Every call counts in its day row and in its month row.
const KEYS = `b.grain, b.day::text AS day, c.agent_id::text AS agent,
  coalesce(c.campaign_id::text, '${NONE_ID}') AS campaign, coalesce(c.template_id::text, '${NONE_ID}') AS template,
  coalesce(c.language, c.detected_language, '') AS language, c.language_mismatch AS mismatch`;
const BUCKETS = `CROSS JOIN LATERAL (VALUES ('day', (c.started_at AT TIME ZONE a.time_zone)::date),
  ('month', date_trunc('month', c.started_at AT TIME ZONE a.time_zone)::date)) b (grain, day)`;
const SCORED = `FROM calls c JOIN accounts a ON a.id = c.account_id ${BUCKETS}
  WHERE c.account_id = $1 AND c.status = 'analyzed' AND c.score IS NOT NULL`;
const CRIT_FAIL = `EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(c.criteria, '[]')) e
  WHERE e->>'result' = 'failed' AND (e->>'critical')::boolean)`;

async function direct(accountId: string) {
  const days = await t.sql(
    `SELECT ${KEYS}, count(*)::int AS calls, trim_scale(sum(c.score::numeric))::text AS score_sum,
            trim_scale(coalesce(sum(c.coverage::numeric), 0))::text AS coverage_sum, count(c.coverage)::int AS coverage_calls,
            (count(*) FILTER (WHERE ${CRIT_FAIL}))::int AS critical_fails,
            array_agg(least(9, floor(c.score / 10))::int ORDER BY least(9, floor(c.score / 10))) AS bands,
            trim_scale(coalesce(sum(c.customer_sentiment::numeric), 0))::text AS sentiment_sum,
            count(c.customer_sentiment)::int AS sentiment_calls, count(c.customer_sentiment_trend)::int AS trend_calls,
            (count(*) FILTER (WHERE c.customer_sentiment_trend >= 0.1))::int AS improved,
            (count(*) FILTER (WHERE c.customer_sentiment_trend <= -0.1))::int AS worsened
       ${SCORED} GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    [accountId],
  );
  const criteria = await t.sql(
    `SELECT ${KEYS}, e->>'key' AS criterion, (count(*) FILTER (WHERE e->>'result' = 'passed'))::int AS passed,
            (count(*) FILTER (WHERE e->>'result' = 'failed'))::int AS failed,
            (count(*) FILTER (WHERE e->>'result' = 'na'))::int AS na,
            (count(*) FILTER (WHERE e->>'result' = 'failed' AND (e->>'critical')::boolean))::int AS critical_fails
       FROM calls c JOIN accounts a ON a.id = c.account_id ${BUCKETS}
      CROSS JOIN jsonb_array_elements(coalesce(c.criteria, '[]')) e
      WHERE c.account_id = $1 AND c.status = 'analyzed' AND c.score IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
    [accountId],
  );
  const topics = await t.sql(
    `SELECT ${KEYS}, c.topic, count(*)::int AS calls ${SCORED} AND c.topic IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
    [accountId],
  );
  return { days, criteria, topics };
}

const RKEYS = `grain, day::text AS day, agent_id::text AS agent, campaign_id::text AS campaign, template_id::text AS template,
  language, language_mismatch AS mismatch`;

async function kept(accountId: string) {
  const days = await t.sql(
    `SELECT ${RKEYS}, calls, trim_scale(score_sum)::text AS score_sum, trim_scale(coverage_sum)::text AS coverage_sum,
            coverage_calls, critical_fails,
            array_cat(array_cat(array_cat(array_fill(0, ARRAY[band_0]), array_fill(1, ARRAY[band_1])),
                      array_cat(array_fill(2, ARRAY[band_2]), array_fill(3, ARRAY[band_3]))),
              array_cat(array_cat(array_cat(array_fill(4, ARRAY[band_4]), array_fill(5, ARRAY[band_5])),
                      array_cat(array_fill(6, ARRAY[band_6]), array_fill(7, ARRAY[band_7]))),
                      array_cat(array_fill(8, ARRAY[band_8]), array_fill(9, ARRAY[band_9])))) AS bands,
            trim_scale(customer_sentiment_sum)::text AS sentiment_sum, customer_sentiment_calls AS sentiment_calls,
            customer_trend_calls AS trend_calls, customer_improved AS improved, customer_worsened AS worsened
       FROM report_days WHERE account_id = $1 AND calls <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    [accountId],
  );
  const criteria = await t.sql(
    `SELECT ${RKEYS}, criterion, passed, failed, na, critical_fails FROM report_criteria_days
      WHERE account_id = $1 AND passed + failed + na <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
    [accountId],
  );
  const topics = await t.sql(
    `SELECT ${RKEYS}, topic, calls FROM report_topic_days WHERE account_id = $1 AND calls <> 0
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
    [accountId],
  );
  // Rows emptied by removals hold nothing but zeros.
  const [stale] = await t.sql(
    `SELECT (SELECT count(*) FROM report_days WHERE account_id = $1 AND calls = 0
               AND (score_sum <> 0 OR coverage_sum <> 0 OR coverage_calls <> 0 OR critical_fails <> 0
                    OR band_0 + band_1 + band_2 + band_3 + band_4 + band_5 + band_6 + band_7 + band_8 + band_9 <> 0
                    OR customer_sentiment_sum <> 0 OR customer_sentiment_calls <> 0 OR customer_trend_calls <> 0
                    OR customer_improved <> 0 OR customer_worsened <> 0))
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
const criteriaArb = fc.uniqueArray(criterion, { selector: (c) => c.key, maxLength: 3 }).map((list) =>
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
// The customer's sentiment as the analysis writes it (three decimals; null on mono), and a trend
// that often lands on the ±0.1 edges of "ended better / worse".
const sentimentArb = fc.option(fc.integer({ min: -1000, max: 1000 }).map((n) => n / 1000));
const trendArb = fc.option(
  fc.oneof(
    fc.constantFrom(0.1, -0.1, 0.099, -0.099, 0),
    fc.integer({ min: -2000, max: 2000 }).map((n) => n / 1000),
  ),
);

describe('rollups kept by triggers', () => {
  test('equal a direct aggregate after any sequence of intake, review, re-analysis, sentiment, deletion and zone changes', async () => {
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
        // Minutes around midnight UTC on the 1st, so the account's zone decides the day and the month.
        minute: fc.integer({ min: -600, max: 600 }),
        topic: fc.constantFrom(null, 'Billing', 'Refund'),
        language: fc.constantFrom(null, 'en', 'es'),
        mismatch: fc.boolean(),
        score: scoreArb,
        coverage: coverageArb,
        criteria: criteriaArb,
        sentiment: sentimentArb,
        trend: trendArb,
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
        sentiment: sentimentArb,
        trend: trendArb,
      }),
      // The sentiment alone rewritten (no status change): the rollups must still follow.
      fc.record({ kind: fc.constant('sentiment' as const), pick: fc.nat(), sentiment: sentimentArb, trend: trendArb }),
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
                                  content_type, storage_key, reserved_minutes, period, customer_sentiment,
                                  customer_sentiment_trend)
               SELECT gen_random_uuid(), $1, 'api', $2::"CallStatus", $3, $4, $5,
                      timestamptz '2024-03-01 00:00Z' + $6 * interval '1 minute' + g * interval '7 minutes', $7, $8, $9,
                      $10, $11, $12::jsonb, 'f.wav', 1, 'x', 'audio/wav', 'k', 1, '2024-03', $14, $15
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
                o.sentiment,
                o.trend,
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
                      language_mismatch = $7, customer_sentiment = $8, customer_sentiment_trend = $9
                WHERE id = ${pickOne} AND status = 'analyzing'`,
              [
                accountId,
                o.pick,
                o.score,
                o.coverage,
                JSON.stringify(o.criteria),
                o.topic,
                o.mismatch,
                o.sentiment,
                o.trend,
              ],
            );
          } else if (o.kind === 'sentiment') {
            await t.sql(
              `UPDATE calls SET customer_sentiment = $3, customer_sentiment_trend = $4 WHERE id = ${pickOne}`,
              [accountId, o.pick, o.sentiment, o.trend],
            );
          } else if (o.kind === 'fields') {
            await t.sql(
              `UPDATE calls SET agent_id = $3, started_at = timestamptz '2024-03-01 00:00Z' + $4 * interval '1 minute',
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

describe('report queries', () => {
  let acme: Awaited<ReturnType<typeof seedAccount>>;
  let ana: { id: string };
  let luis: { id: string };
  let templateId: string;
  const FILTER = { from: '2024-03-09', to: '2024-03-11' };

  beforeAll(async () => {
    acme = await seedAccount(h, 'Reports Co');
    const accountId = acme.account.id;
    const db = h.app.db;
    await db.account.update({ where: { id: accountId }, data: { timeZone: 'America/New_York' } });
    ana = await db.agent.create({ data: { accountId, name: 'Ana', nameNormalized: 'ana' } });
    luis = await db.agent.create({ data: { accountId, name: '=Luis', nameNormalized: 'luis' } });
    const campaign = await db.campaign.create({ data: { accountId, name: 'Ventas', nameNormalized: 'ventas' } });
    const template = await db.template.create({
      data: {
        accountId,
        name: 'T',
        definition: {
          version: 1,
          criteria: [
            { key: 'greeting', label: 'Greets the customer' },
            { key: 'resolved', label: 'Resolves the issue' },
          ],
          topics: [],
        },
      },
    });
    templateId = template.id;
    const crit = (key: string, result: string, critical = false) => ({
      key,
      label: key,
      kind: 'phrase',
      result,
      points: result === 'passed' ? 1 : 0,
      max_points: result === 'na' ? 0 : 1,
      critical,
      evidence: [],
    });
    const put = (over: Record<string, unknown>) =>
      t.sql(
        `INSERT INTO calls (id, account_id, source, status, agent_id, campaign_id, template_id, started_at, language,
                            topic, language_mismatch, score, coverage, criteria, file_name, file_size, file_sha256,
                            content_type, storage_key, reserved_minutes, period)
         VALUES (gen_random_uuid(), $1, 'api', $2::"CallStatus", $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb,
                 'f.wav', 1, 'x', 'audio/wav', 'k', 1, '2024-03')`,
        [
          accountId,
          over.status ?? 'analyzed',
          over.agent,
          over.campaign ?? null,
          over.template ?? null,
          over.at,
          over.language ?? 'en',
          over.topic ?? null,
          over.mismatch ?? false,
          over.score ?? null,
          over.coverage ?? null,
          JSON.stringify(over.criteria ?? []),
        ],
      );
    const common = { agent: ana.id, campaign: campaign.id, template: template.id };
    // 03:00Z on the 10th is still the 9th in New York.
    await put({
      ...common,
      at: '2024-03-10T03:00:00Z',
      score: 50,
      coverage: 0.5,
      topic: 'Billing',
      criteria: [crit('greeting', 'failed', true)],
    });
    await put({
      ...common,
      at: '2024-03-10T15:00:00Z',
      score: 90,
      coverage: 1,
      topic: 'Billing',
      criteria: [crit('greeting', 'passed')],
    });
    await put({ ...common, at: '2024-03-07T15:00:00Z', score: 60, coverage: 1 }); // the previous period
    await put({
      agent: luis.id,
      at: '2024-03-11T15:00:00Z',
      language: 'es',
      score: 70,
      coverage: 0.8,
      topic: 'Refund',
      criteria: [crit('greeting', 'passed'), crit('resolved', 'failed')],
    });
    await put({ agent: luis.id, at: '2024-03-11T16:00:00Z', language: 'es', score: 10, mismatch: true });
    await put({ ...common, at: '2024-03-10T15:00:00Z', status: 'transcribed' });
    await put({ ...common, at: '2024-03-10T15:00:00Z', status: 'analyzing', score: 100 });
  });

  const TREND = `query($f: ReportFilter!, $i: ReportInterval!) { reportTrend(filter: $f, interval: $i) {
    __typename ... on ReportTrend { rows { period calls averageScore averageCoverage criticalFails } }
    ... on ValidationError { code issues { path message } } } }`;
  const trend = async (f: Record<string, unknown>, i = 'DAY') =>
    (await acme.as.viewer.gql(TREND, { f, i })).body.data.reportTrend;

  test("buckets scored calls by the account's days, weeks and months, leaving out language mismatches", async () => {
    expect((await trend(FILTER)).rows).toEqual([
      { period: '2024-03-09', calls: 1, averageScore: 50, averageCoverage: 0.5, criticalFails: 1 },
      { period: '2024-03-10', calls: 1, averageScore: 90, averageCoverage: 1, criticalFails: 0 },
      { period: '2024-03-11', calls: 1, averageScore: 70, averageCoverage: 0.8, criticalFails: 0 },
    ]);
    expect((await trend({ ...FILTER, includeLanguageMismatch: true })).rows[2]).toEqual({
      period: '2024-03-11',
      calls: 2,
      averageScore: 40,
      averageCoverage: 0.8,
      criticalFails: 0,
    });
    // 9 and 10 March 2024 are in the ISO week of Monday 4 March.
    expect((await trend(FILTER, 'WEEK')).rows.map((r: any) => [r.period, r.calls, r.averageScore])).toEqual([
      ['2024-03-04', 2, 70],
      ['2024-03-11', 1, 70],
    ]);
    expect((await trend({ from: '2024-03-01', to: '2024-03-31' }, 'MONTH')).rows).toMatchObject([
      { period: '2024-03-01', calls: 4, averageScore: 67.5 },
    ]);
  });

  test('filters by agent, campaign, template and language', async () => {
    const days = async (f: Record<string, unknown>) =>
      (await trend({ ...FILTER, ...f })).rows.map((r: any) => r.period);
    expect(await days({ agentIds: [luis.id] })).toEqual(['2024-03-11']);
    expect(await days({ languages: ['ES'] })).toEqual(['2024-03-11']);
    expect(await days({ templateIds: [templateId] })).toEqual(['2024-03-09', '2024-03-10']);
    expect(await days({ campaignIds: [NONE_ID] })).toEqual(['2024-03-11']);
    expect(await days({ agentIds: ['not-an-id'] })).toEqual([]);
  });

  test('per agent and campaign with the change against the previous period, per criterion, distribution, topics', async () => {
    const q = `query($f: ReportFilter!) {
      reportAgents(filter: $f) { ... on ReportBreakdown { rows { id name calls averageScore criticalFails previousCalls previousAverageScore change } } }
      reportCampaigns(filter: $f) { ... on ReportBreakdown { rows { name calls averageScore } } }
      reportCriteria(filter: $f) { ... on ReportCriteria { rows { key label passed failed na passRate criticalFails } } }
      reportScoreDistribution(filter: $f) { ... on ReportScoreDistribution { rows { from to calls } } }
      reportTopics(filter: $f, interval: DAY) { ... on ReportTopics { rows { period topic calls } } }
    }`;
    const r = await acme.as.viewer.gql(q, { f: FILTER });
    expect(r.body.errors).toBeUndefined();
    const d = r.body.data;
    expect(d.reportAgents.rows).toEqual([
      {
        id: ana.id,
        name: 'Ana',
        calls: 2,
        averageScore: 70,
        criticalFails: 1,
        previousCalls: 1,
        previousAverageScore: 60,
        change: 10,
      },
      {
        id: luis.id,
        name: '=Luis',
        calls: 1,
        averageScore: 70,
        criticalFails: 0,
        previousCalls: 0,
        previousAverageScore: null,
        change: null,
      },
    ]);
    expect(d.reportCampaigns.rows).toEqual([
      { name: 'Ventas', calls: 2, averageScore: 70 },
      { name: null, calls: 1, averageScore: 70 },
    ]);
    expect(d.reportCriteria.rows).toEqual([
      {
        key: 'greeting',
        label: 'Greets the customer',
        passed: 2,
        failed: 1,
        na: 0,
        passRate: 0.667,
        criticalFails: 1,
      },
      { key: 'resolved', label: 'Resolves the issue', passed: 0, failed: 1, na: 0, passRate: 0, criticalFails: 0 },
    ]);
    expect(d.reportScoreDistribution.rows.filter((b: any) => b.calls)).toEqual([
      { from: 50, to: 60, calls: 1 },
      { from: 70, to: 80, calls: 1 },
      { from: 90, to: 100, calls: 1 },
    ]);
    expect(d.reportTopics.rows).toEqual([
      { period: '2024-03-09', topic: 'Billing', calls: 1 },
      { period: '2024-03-10', topic: 'Billing', calls: 1 },
      { period: '2024-03-11', topic: 'Refund', calls: 1 },
    ]);
  });

  test('reads whole months from month rows and the rest from day rows, with the same answer', async () => {
    const q = `query($f: ReportFilter!) {
      reportCriteria(filter: $f) { ... on ReportCriteria { rows { key passed failed } } }
      reportAgents(filter: $f) { ... on ReportBreakdown { rows { name calls averageScore previousCalls } } } }`;
    const answer = async (from: string, to: string) => (await acme.as.viewer.gql(q, { f: { from, to } })).body.data;
    const march = await answer('2024-03-01', '2024-03-31'); // one month row per key
    expect(march.reportCriteria.rows).toHaveLength(2);
    expect(await answer('2024-02-20', '2024-04-10')).toEqual(march); // days, a month, days
    expect(await answer('2024-03-02', '2024-03-30')).toEqual(march); // day rows only
  });

  test('answers a ValidationError for a wrong filter', async () => {
    const bad = await trend({ from: '2024-13-01', to: '2024-03-01' });
    expect(bad.__typename).toBe('ValidationError');
    expect(bad.issues.map((i: any) => i.path)).toContain('from');
    const reversed = await trend({ from: '2024-03-02', to: '2024-03-01' });
    expect(reversed.issues).toEqual([{ path: 'to', message: 'must not be before `from`' }]);
    const long = await trend({ from: '2020-01-01', to: '2024-03-01' });
    expect(long.issues[0].path).toBe('to');
  });

  test('follows a change of the time zone (the rollups are rebuilt in the new zone)', async () => {
    await h.app.db.account.update({ where: { id: acme.account.id }, data: { timeZone: 'UTC' } });
    expect((await trend(FILTER)).rows.map((r: any) => [r.period, r.calls])).toEqual([
      ['2024-03-10', 2],
      ['2024-03-11', 1],
    ]);
    await h.app.db.account.update({ where: { id: acme.account.id }, data: { timeZone: 'America/New_York' } });
  });

  test('exports every table as formula-safe CSV through the app route', async ({ service: svc }) => {
    const viewer = await signedIn(svc.app.db, acme.account.id, 'viewer');
    const get = (path: string) => fetch(`${svc.url}${path}`, { headers: viewer.headers() });
    const qs = `from=${FILTER.from}&to=${FILTER.to}`;
    const agents = await get(`/api/reports/agents.csv?${qs}`);
    expect(agents.status).toBe(200);
    expect(agents.headers.get('content-disposition')).toContain('escucha-agents-2024-03-09-2024-03-11.csv');
    const rows = parseCsv((await agents.text()).replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual([
      'agent',
      'calls',
      'average_score',
      'average_coverage_percent',
      'critical_fails',
      'previous_calls',
      'previous_average_score',
      'change',
      'average_customer_sentiment',
      'customer_improved_percent',
      'customer_worsened_percent',
    ]);
    // These calls were analyzed before sentiment existed: its cells are empty, not zero.
    expect(rows[1]).toEqual(['Ana', '2', '70', '75', '1', '1', '60', '10', '', '', '']);
    expect(rows[2]![0]).toBe("'=Luis");
    // Agents is read above; disputes count on the day they were opened, outside this range.
    for (const table of REPORT_TABLES.filter((t) => t !== 'agents' && t !== 'disputes')) {
      const r = await get(`/api/reports/${table}.csv?${qs}&interval=week&agentIds=${ana.id},${luis.id}`);
      expect(r.status, table).toBe(200);
      expect(parseCsv(await r.text()).length, table).toBeGreaterThan(1);
    }
    expect((await get(`/api/reports/agents.csv?from=2024-03-09`)).status).toBe(400);
    expect((await get(`/api/reports/secrets.csv?${qs}`)).status).toBe(404);
    expect((await fetch(`${svc.url}/api/reports/agents.csv?${qs}`)).status).toBe(401);
  });

  test('refuses an agent user every report CSV, as the GraphQL report fields refuse them', async ({ service: svc }) => {
    const agentUser = await signedIn(svc.app.db, acme.account.id, 'agent');
    await svc.app.db.user.update({ where: { id: agentUser.userId }, data: { agentId: ana.id } });
    const qs = `from=${FILTER.from}&to=${FILTER.to}`;
    for (const table of REPORT_TABLES) {
      const r = await fetch(`${svc.url}/api/reports/${table}.csv?${qs}`, { headers: agentUser.headers() });
      expect(r.status, table).toBe(403);
      expect(r.headers.get('content-type'), table).toContain('application/json');
      expect(await r.text(), table).not.toContain('Luis');
    }
    const gql = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { ...agentUser.headers(), 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ reportAgents(filter: { from: "${FILTER.from}", to: "${FILTER.to}" }) { __typename } }`,
      }),
    });
    expect((await gql.json()).errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('sentiment report', () => {
  let acme: Awaited<ReturnType<typeof seedAccount>>;
  let ana: { id: string };
  let luis: { id: string };
  const FILTER = { from: '2024-03-09', to: '2024-03-10' };
  const Q = `query($f: ReportFilter!, $i: ReportInterval!) { reportSentiment(filter: $f, interval: $i) {
    __typename ... on ReportSentiment { rows { period calls sentimentCalls averageCustomerSentiment trendCalls improved
      worsened improvedShare worsenedShare } }
    ... on ValidationError { code issues { path message } } } }`;
  const sentiment = async (f: Record<string, unknown>, i = 'DAY') =>
    (await acme.as.viewer.gql(Q, { f, i })).body.data.reportSentiment;

  beforeAll(async () => {
    acme = await seedAccount(h, 'Sentiment Co');
    const accountId = acme.account.id;
    const db = h.app.db;
    await db.account.update({ where: { id: accountId }, data: { timeZone: 'America/New_York' } });
    ana = await db.agent.create({ data: { accountId, name: 'Ana', nameNormalized: 'ana' } });
    luis = await db.agent.create({ data: { accountId, name: 'Luis', nameNormalized: 'luis' } });
    const ventas = await db.campaign.create({ data: { accountId, name: 'Ventas', nameNormalized: 'ventas' } });
    const put = (
      agent: string,
      at: string,
      sentiment: number | null,
      trend: number | null,
      over: { status?: string; mismatch?: boolean; campaign?: string } = {},
    ) =>
      t.sql(
        `INSERT INTO calls (id, account_id, source, status, agent_id, campaign_id, started_at, language, language_mismatch,
                            score, customer_sentiment, customer_sentiment_trend, file_name, file_size, file_sha256,
                            content_type, storage_key, reserved_minutes, period)
         VALUES (gen_random_uuid(), $1, 'api', $2::"CallStatus", $3, $4, $5, 'en', $6, 80, $7, $8, 'f.wav', 1, 'x',
                 'audio/wav', 'k', 1, '2024-03')`,
        [
          accountId,
          over.status ?? 'analyzed',
          agent,
          over.campaign ?? null,
          at,
          over.mismatch ?? false,
          sentiment,
          trend,
        ],
      );
    // Ana, campaign Ventas: one customer ends worse, one exactly 0.1 better (the call page's "Improved"), one better.
    await put(ana.id, '2024-03-09T15:00Z', -0.5, -0.6, { campaign: ventas.id });
    await put(ana.id, '2024-03-09T16:00Z', 0.3, 0.1, { campaign: ventas.id });
    await put(ana.id, '2024-03-10T15:00Z', 0.7, 0.9, { campaign: ventas.id });
    // Luis, no campaign: 0.099 is "about the same"; a mono call without separated voices has no
    // sentiment; a customer who spoke once has a sentiment but no trend.
    await put(luis.id, '2024-03-10T16:00Z', 0.2, 0.099);
    await put(luis.id, '2024-03-10T17:00Z', null, null);
    await put(luis.id, '2024-03-10T18:00Z', -0.2, null);
    // Not in the reports: a call being re-analyzed, and (unless asked for) a language mismatch.
    await put(luis.id, '2024-03-10T19:00Z', 1, 1, { status: 'analyzing' });
    await put(luis.id, '2024-03-10T20:00Z', -1, -2, { mismatch: true });
    // The previous period (6–8 March): in the month, not in the range.
    await put(ana.id, '2024-03-07T15:00Z', 0.1, -0.3, { campaign: ventas.id });
  });

  test('averages the customer sentiment and counts who ended better or worse, per day, week and month', async () => {
    expect((await sentiment(FILTER)).rows).toEqual([
      {
        period: '2024-03-09',
        calls: 2,
        sentimentCalls: 2,
        averageCustomerSentiment: -0.1,
        trendCalls: 2,
        improved: 1,
        worsened: 1,
        improvedShare: 0.5,
        worsenedShare: 0.5,
      },
      {
        period: '2024-03-10',
        calls: 4,
        sentimentCalls: 3,
        averageCustomerSentiment: 0.233,
        trendCalls: 2,
        improved: 1,
        worsened: 0,
        improvedShare: 0.5,
        worsenedShare: 0,
      },
    ]);
    expect((await sentiment(FILTER, 'WEEK')).rows).toEqual([
      {
        period: '2024-03-04',
        calls: 6,
        sentimentCalls: 5,
        averageCustomerSentiment: 0.1,
        trendCalls: 4,
        improved: 2,
        worsened: 1,
        improvedShare: 0.5,
        worsenedShare: 0.25,
      },
    ]);
    expect((await sentiment({ from: '2024-03-01', to: '2024-03-31' }, 'MONTH')).rows).toEqual([
      {
        period: '2024-03-01',
        calls: 7,
        sentimentCalls: 6,
        averageCustomerSentiment: 0.1,
        trendCalls: 5,
        improved: 2,
        worsened: 2,
        improvedShare: 0.4,
        worsenedShare: 0.4,
      },
    ]);
    expect((await sentiment({ ...FILTER, includeLanguageMismatch: true })).rows[1]).toMatchObject({
      calls: 5,
      sentimentCalls: 4,
      averageCustomerSentiment: -0.075,
      trendCalls: 3,
      improved: 1,
      worsened: 1,
    });
    expect((await sentiment({ ...FILTER, agentIds: [luis.id] })).rows).toEqual([
      expect.objectContaining({ period: '2024-03-10', sentimentCalls: 2, averageCustomerSentiment: 0, improved: 0 }),
    ]);
  });

  test('puts the sentiment beside each agent and campaign', async () => {
    const q = `query($f: ReportFilter!) {
      reportAgents(filter: $f) { ... on ReportBreakdown { rows { name calls averageCustomerSentiment customerImprovedShare customerWorsenedShare } } }
      reportCampaigns(filter: $f) { ... on ReportBreakdown { rows { name averageCustomerSentiment customerImprovedShare customerWorsenedShare } } }
    }`;
    const r = await acme.as.viewer.gql(q, { f: FILTER });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.reportAgents.rows).toEqual([
      {
        name: 'Ana',
        calls: 3,
        averageCustomerSentiment: 0.167,
        customerImprovedShare: 0.667,
        customerWorsenedShare: 0.333,
      },
      { name: 'Luis', calls: 3, averageCustomerSentiment: 0, customerImprovedShare: 0, customerWorsenedShare: 0 },
    ]);
    expect(r.body.data.reportCampaigns.rows).toEqual([
      { name: 'Ventas', averageCustomerSentiment: 0.167, customerImprovedShare: 0.667, customerWorsenedShare: 0.333 },
      { name: null, averageCustomerSentiment: 0, customerImprovedShare: 0, customerWorsenedShare: 0 },
    ]);
  });

  test('follows a re-analysis that changes the sentiment', async () => {
    // The customer Luis could not please on the 10th is re-read as having ended much better.
    await t.sql(
      `UPDATE calls SET customer_sentiment_trend = 0.5 WHERE agent_id = $1 AND customer_sentiment_trend = 0.099`,
      [luis.id],
    );
    expect((await sentiment({ ...FILTER, agentIds: [luis.id] })).rows[0]).toMatchObject({ improved: 1, trendCalls: 1 });
    await t.sql(
      `UPDATE calls SET customer_sentiment_trend = 0.099 WHERE agent_id = $1 AND customer_sentiment_trend = 0.5`,
      [luis.id],
    );
    expect((await sentiment({ ...FILTER, agentIds: [luis.id] })).rows[0]).toMatchObject({ improved: 0, trendCalls: 1 });
  });

  test('answers a ValidationError for a wrong filter', async () => {
    const bad = await sentiment({ from: '2024-03-02', to: '2024-03-01' });
    expect(bad).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'to' }] });
  });

  test('exports the table as CSV', async ({ service: svc }) => {
    const viewer = await signedIn(svc.app.db, acme.account.id, 'viewer');
    const r = await fetch(`${svc.url}/api/reports/sentiment.csv?from=${FILTER.from}&to=${FILTER.to}&interval=day`, {
      headers: viewer.headers(),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toContain('escucha-sentiment-2024-03-09-2024-03-10.csv');
    expect(parseCsv((await r.text()).replace(/^\uFEFF/, ''))).toEqual([
      [
        'period',
        'calls',
        'sentiment_calls',
        'average_customer_sentiment',
        'trend_calls',
        'customer_improved',
        'customer_worsened',
        'customer_improved_percent',
        'customer_worsened_percent',
      ],
      ['2024-03-09', '2', '2', '-0.1', '2', '1', '1', '50', '50'],
      ['2024-03-10', '4', '3', '0.233', '2', '1', '0', '50', '0'],
    ]);
    const agents = await fetch(`${svc.url}/api/reports/agents.csv?from=${FILTER.from}&to=${FILTER.to}`, {
      headers: viewer.headers(),
    });
    expect(parseCsv((await agents.text()).replace(/^\uFEFF/, ''))[1]!.slice(-3)).toEqual(['0.167', '66.7', '33.3']);
  });
});

describe('disputes report', () => {
  let acme: Awaited<ReturnType<typeof seedAccount>>;
  let luis: { id: string };
  const FILTER = { from: '2024-03-09', to: '2024-03-11' };
  const Q = `query($f: ReportFilter!, $i: ReportInterval!) { reportDisputes(filter: $f, interval: $i) {
    __typename ... on ReportDisputes { rows { period opened stillOpen accepted rejected medianHoursToResolve } }
    ... on ValidationError { code issues { path message } } } }`;
  const disputes = async (f: Record<string, unknown>, i = 'DAY') =>
    (await acme.as.viewer.gql(Q, { f, i })).body.data.reportDisputes;
  const row = (
    period: string,
    opened: number,
    stillOpen: number,
    accepted: number,
    rejected: number,
    median: number | null,
  ) => ({
    period,
    opened,
    stillOpen,
    accepted,
    rejected,
    medianHoursToResolve: median,
  });

  beforeAll(async () => {
    acme = await seedAccount(h, 'Disputes Co');
    const accountId = acme.account.id;
    const db = h.app.db;
    await db.account.update({ where: { id: accountId }, data: { timeZone: 'America/New_York' } });
    const ana = await db.agent.create({ data: { accountId, name: 'Ana', nameNormalized: 'ana' } });
    luis = await db.agent.create({ data: { accountId, name: 'Luis', nameNormalized: 'luis' } });
    const agentUser = async (agent: { id: string; name: string }) => {
      const u = await db.user.create({
        data: {
          accountId,
          email: `${agent.name.toLowerCase()}-${accountId.slice(0, 8)}@example.com`,
          name: agent.name,
          role: 'agent',
          agentId: agent.id,
          passwordHash: 'x',
        },
      });
      return { id: u.id, name: u.name, accountId, role: u.role, agentId: agent.id };
    };
    const anaUser = await agentUser(ana);
    const luisUser = await agentUser({ id: luis.id, name: 'Luis' });
    const crit = (key: string, result: string) => ({
      key,
      label: key,
      kind: 'phrase',
      result,
      points: result === 'passed' ? 1 : 0,
      max_points: 1,
      critical: false,
      evidence: [],
    });
    const call = async (agentId: string, language: string, mismatch = false) => {
      const [c] = await t.sql(
        `INSERT INTO calls (id, account_id, source, status, agent_id, started_at, analyzed_at, language, language_mismatch,
                            score, criteria, file_name, file_size, file_sha256, content_type, storage_key,
                            reserved_minutes, period)
         VALUES (gen_random_uuid(), $1, 'api', 'analyzed', $2, '2024-03-08T15:00Z', '2024-03-08T16:00Z', $3, $4, 50,
                 $5::jsonb, 'f.wav', 1, 'x', 'audio/wav', 'k', 1, '2024-03') RETURNING id`,
        [
          accountId,
          agentId,
          language,
          mismatch,
          JSON.stringify([crit('greeting', 'failed'), crit('resolved', 'passed')]),
        ],
      );
      return c.id as string;
    };
    const x = await call(ana.id, 'en');
    const y = await call(luis.id, 'es');
    const z = await call(ana.id, 'en', true);
    const analyst = { id: acme.users.analyst.id, accountId, name: 'Marta' };
    const url = h.app.config.publicUrl;
    // 03:00Z on the 10th is still the 9th in New York; answered 12 hours later, on the 10th.
    const d1 = await openDispute(
      db,
      anaUser,
      { callId: x, key: 'greeting', comment: 'I greeted' },
      new Date('2024-03-10T03:00Z'),
    );
    await resolveDispute(db, analyst, { id: d1.id, accept: true, reply: 'Right' }, url, new Date('2024-03-10T15:00Z'));
    // Opened on the 10th, rejected a day later.
    const d2 = await openDispute(
      db,
      anaUser,
      { callId: x, key: 'resolved', comment: 'It was' },
      new Date('2024-03-10T15:00Z'),
    );
    await resolveDispute(db, analyst, { id: d2.id, accept: false, reply: 'No' }, url, new Date('2024-03-11T15:00Z'));
    // Still open.
    await openDispute(
      db,
      luisUser,
      { callId: y, key: 'greeting', comment: 'Dije hola' },
      new Date('2024-03-11T16:00Z'),
    );
    // On a call scored with a template in another language: left out unless asked for.
    await openDispute(db, anaUser, { callId: z, key: 'greeting', comment: 'Hello' }, new Date('2024-03-11T17:00Z'));
  });

  test("counts openings on the day they were opened and answers on the day they were given, in the account's zone", async () => {
    expect((await disputes(FILTER)).rows).toEqual([
      row('2024-03-09', 1, 0, 0, 0, null),
      row('2024-03-10', 1, 0, 1, 0, 12),
      row('2024-03-11', 1, 1, 0, 1, 24),
    ]);
    expect((await disputes({ ...FILTER, includeLanguageMismatch: true })).rows[2]).toEqual(
      row('2024-03-11', 2, 2, 0, 1, 24),
    );
    expect((await disputes(FILTER, 'WEEK')).rows).toEqual([
      row('2024-03-04', 2, 0, 1, 0, 12),
      row('2024-03-11', 1, 1, 0, 1, 24),
    ]);
    expect((await disputes({ from: '2024-03-01', to: '2024-03-31' }, 'MONTH')).rows).toEqual([
      row('2024-03-01', 3, 1, 1, 1, 18),
    ]);
    // An answer in the range counts even when its dispute was opened before it.
    expect((await disputes({ from: '2024-03-10', to: '2024-03-10' })).rows).toEqual([
      row('2024-03-10', 1, 0, 1, 0, 12),
    ]);
  });

  test('filters by the disputed calls: agent, language, campaign, template', async () => {
    const only11 = [row('2024-03-11', 1, 1, 0, 0, null)];
    expect((await disputes({ ...FILTER, agentIds: [luis.id] })).rows).toEqual(only11);
    expect((await disputes({ ...FILTER, languages: ['es'] })).rows).toEqual(only11);
    expect((await disputes({ ...FILTER, campaignIds: [NONE_ID], templateIds: [NONE_ID] })).rows).toHaveLength(3);
    expect((await disputes({ ...FILTER, templateIds: [luis.id] })).rows).toEqual([]);
  });

  test('answers a ValidationError for a wrong filter', async () => {
    const bad = await disputes({ from: '2024-03-02', to: '2024-03-01' });
    expect(bad).toMatchObject({ __typename: 'ValidationError', issues: [{ path: 'to' }] });
  });

  test('exports the table as CSV', async ({ service: svc }) => {
    const viewer = await signedIn(svc.app.db, acme.account.id, 'viewer');
    const r = await fetch(`${svc.url}/api/reports/disputes.csv?from=${FILTER.from}&to=${FILTER.to}&interval=week`, {
      headers: viewer.headers(),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toContain('escucha-disputes-2024-03-09-2024-03-11.csv');
    expect(parseCsv((await r.text()).replace(/^\uFEFF/, ''))).toEqual([
      ['period', 'opened', 'still_open', 'accepted', 'rejected', 'median_hours_to_resolve'],
      ['2024-03-04', '2', '0', '1', '0', '12'],
      ['2024-03-11', '1', '1', '0', '1', '24'],
    ]);
  });
});
