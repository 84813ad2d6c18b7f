// `npm run bench:reports [-- --json] [-- --calls 1000000] [-- --runs 20]`
//
// The dashboard at a million calls (issue 10.5). Seeds one account in a throwaway database straight
// with SQL — a year of calls from 100 agents, each working one of 8 campaigns (6 Spanish, 2
// English) plus calls without a campaign, scored with the campaign language's template of six
// criteria, 2 % flagged language_mismatch, 12 topics, 90 % analyzed, 1 % of those disputed, a customer sentiment on 95 %
// of the analyzed calls and a customer trend on 85 % — then builds the rollups the
// way a time zone change does (report_rebuild), starts the real service (api role) in a child
// process, signs in and sends exactly the dashboard's GraphQL documents (src/web/lib/dashboard-reports.ts) for the
// dashboard's default (last 30 days by day), the same narrowed to one agent, a quarter by week and
// the whole year by month, and the dashboard's machine-agreement flag (human_checks over the last 90
// days and over the year; 2 % of the analyzed calls carry an override). Each case runs `--runs` times after two warm-ups and prints p50/p95
// next to the goal (≤ 150 ms). In the same run, the same aggregates computed directly from `calls`
// (no rollups) are timed as the baseline, and the ratio is printed.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { print } from 'graphql';
import pg from 'pg';
import { createDb } from '../../src/db/client.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { DASHBOARD_REPORTS } from '../../src/web/lib/dashboard-reports.ts';
import { BENCH_APP_SECRET, benchWorkspace, note, percentile, repoRoot, round, startChild, table } from './lib.ts';

const { values: args } = parseArgs({
  strict: false,
  options: {
    json: { type: 'boolean', default: false },
    calls: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log('usage: npm run bench:reports -- [--json] [--calls 1000000] [--runs 20]');
  process.exit(0);
}
const CALLS = Number(args.calls);
const RUNS = Number(args.runs);
if (!Number.isInteger(CALLS) || CALLS < 1000 || !Number.isInteger(RUNS) || RUNS < 5) {
  console.error('--calls must be a whole number ≥ 1000 and --runs ≥ 5');
  process.exit(2);
}
const GOAL_MS = 150;
const PASSWORD = 'bench-password-1234';
const here = import.meta.dirname;
const TIME_ZONE = 'Europe/Madrid';
// The year of calls ends on LAST_DAY (account days); the dashboard's default is its last 30 days.
const LAST_DAY = '2025-12-31';
const YEAR_START = new Date('2025-01-01T00:00:00+01:00');
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The dashboard's documents by operation name, printed as the web app's client prints them (with their fragments). */
function dashboardDocuments(): Map<string, string> {
  return new Map(Object.entries(DASHBOARD_REPORTS).map(([name, doc]) => [name, print(doc)]));
}

const CRITERIA = ['greeting', 'identity_check', 'no_rudeness', 'empathy', 'talk_share', 'resolved'];
const TOPICS = [
  'Billing',
  'Cancellation',
  'Technical issue',
  'Sales',
  'Delivery',
  'Refund',
  'Address change',
  'Complaint',
  'Contract',
  'Payment plan',
  'Roaming',
  'Other',
];

interface Seeded {
  accountId: string;
  email: string;
  agentId: string;
  rollupSeconds: number;
  rollupRows: { days: number; criteria: number; topics: number };
}

async function seed(url: string): Promise<Seeded> {
  const prisma = createDb(url, { max: 2 });
  const { account, owner } = await createAccount(prisma, {
    name: 'Bench Reports',
    minutes: 1_000_000_000,
    seats: 200,
    timeZone: TIME_ZONE,
  });
  await prisma.user.update({ where: { email: owner.email }, data: { passwordHash: await hashPassword(PASSWORD) } });
  const definition = (language: string) => ({
    version: 1,
    language,
    criteria: CRITERIA.map((key) => ({ key, label: key.replace('_', ' '), kind: 'phrase', weight: 2, phrases: [key] })),
    topics: [],
  });
  for (const language of ['en', 'es'])
    await prisma.template.create({
      data: { accountId: account.id, name: `Plantilla ${language}`, definition: definition(language) },
    });
  await prisma.$disconnect();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO agents (id, account_id, name, name_normalized, code, code_normalized, active)
       SELECT gen_random_uuid(), $1, 'Agente ' || lpad(g::text, 3, '0'), 'agente' || g, 'AG-' || g, 'ag' || g, true
         FROM generate_series(1, 100) g`,
      [account.id],
    );
    await client.query(
      `INSERT INTO campaigns (id, account_id, name, name_normalized, language)
       SELECT gen_random_uuid(), $1, 'Campaña ' || g, 'campana' || g, CASE WHEN g <= 6 THEN 'es' ELSE 'en' END
         FROM generate_series(1, 8) g`,
      [account.id],
    );
    // As bench:scale: secondary indexes are built after the rows, and the rollups once at the end
    // (report_rebuild, what a time zone change runs) rather than by the insert trigger per batch.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT indexname AS name, indexdef AS def FROM pg_indexes
        WHERE schemaname = 'public' AND tablename = 'calls' AND indexname <> 'calls_pkey'`,
    );
    for (const i of indexes) await client.query(`DROP INDEX ${i.name}`);
    await client.query('ALTER TABLE calls DISABLE TRIGGER calls_notify_updated');
    await client.query('ALTER TABLE calls DISABLE TRIGGER calls_report_inserted');
    await client.query(`SET maintenance_work_mem = '256MB'`);
    await client.query('SELECT setseed(0.42)');
    const BATCH = 100_000;
    for (let start = 1; start <= CALLS; start += BATCH) {
      const end = Math.min(CALLS, start + BATCH - 1);
      // criterion i: passed with probability p[i]; `resolved` (an llm criterion) is N/A on 30 %,
      // `no_rudeness` is critical and fails on 3 % (score 0).
      await client.query(
        `WITH a AS (SELECT array_agg(id ORDER BY code) AS ids FROM agents WHERE account_id = $1),
              c AS (SELECT array_agg(id ORDER BY name) AS ids, array_agg(language ORDER BY name) AS langs
                      FROM campaigns WHERE account_id = $1),
              tp AS (SELECT array_agg(id ORDER BY name) AS ids FROM templates WHERE account_id = $1),
              x AS (SELECT g, random() AS r, random() AS u1, random() AS u2, random() AS u3, random() AS u4,
                           random() AS u5, random() AS u6, random() AS u7, random() AS u8, random() AS u9,
                           floor(random() * 100)::int AS ag
                      FROM generate_series($3::int, $4::int) g),
              y AS (SELECT x.*,
                           CASE WHEN r < 0.90 THEN 'analyzed' WHEN r < 0.95 THEN 'transcribed' ELSE 'failed' END AS st,
                           CASE WHEN u4 < 0.12 THEN NULL ELSE 1 + ag % 8 END AS camp,
                           CASE WHEN ag % 8 < 6 THEN 'es' ELSE 'en' END AS lang,
                           ARRAY[random() < 0.92, random() < 0.85, random() >= 0.03, random() < 0.7, random() < 0.8,
                                 random() < 0.65] AS pass,
                           u6 < 0.3 AS llm_na
                      FROM x)
         INSERT INTO calls (id, account_id, source, status, agent_id, campaign_id, template_id, started_at, language,
                            language_mismatch, file_name, file_size, file_sha256, content_type, storage_key,
                            duration_seconds, channels, reserved_minutes, used_minutes, period, score, coverage,
                            criteria, topic, analyzed_at, customer_sentiment, customer_sentiment_trend)
         SELECT gen_random_uuid(), $1, 'api', st::"CallStatus", a.ids[1 + ag],
                CASE WHEN camp IS NULL THEN NULL ELSE c.ids[camp] END,
                CASE WHEN st = 'failed' THEN NULL WHEN lang = 'en' THEN tp.ids[1] ELSE tp.ids[2] END,
                $5::timestamptz + (g::float8 / $2::int) * interval '365 days', lang,
                st = 'analyzed' AND u5 < 0.02,
                'f.wav', 1048576, md5(g::text), 'audio/wav', 'bench/' || g || '.wav', 30 + u3 * 600, 2, 2,
                CASE WHEN st <> 'failed' THEN 1 + floor(u3 * 10)::int END, '2025-01',
                CASE WHEN st <> 'analyzed' THEN NULL WHEN NOT pass[3] THEN 0
                     ELSE round((100.0 * ((pass[1])::int + (pass[2])::int + 1 + (pass[4])::int + (pass[5])::int
                                          + CASE WHEN llm_na THEN 0 ELSE (pass[6])::int END)
                                 / CASE WHEN llm_na THEN 5 ELSE 6 END)::numeric, 1) END,
                CASE WHEN st = 'analyzed' THEN CASE WHEN llm_na THEN 0.833 ELSE 1 END END,
                CASE WHEN st = 'analyzed' THEN (
                  SELECT jsonb_agg(jsonb_build_object('key', k.key, 'label', k.key, 'kind', 'phrase',
                           'result', CASE WHEN k.i = 6 AND llm_na THEN 'na' WHEN pass[k.i::int] THEN 'passed' ELSE 'failed' END,
                           'points', CASE WHEN pass[k.i::int] AND NOT (k.i = 6 AND llm_na) THEN 2 ELSE 0 END,
                           'max_points', CASE WHEN k.i = 6 AND llm_na THEN 0 ELSE 2 END,
                           'critical', k.i = 3, 'evidence', '[]'::jsonb) ORDER BY k.i)
                    FROM unnest(${`ARRAY[${CRITERIA.map((k) => `'${k}'`).join(', ')}]`}) WITH ORDINALITY AS k (key, i)) END,
                CASE WHEN st = 'analyzed' THEN (ARRAY[${TOPICS.map((t) => `'${t}'`).join(', ')}])[1 + floor(u1 * u1 * ${TOPICS.length})::int] END,
                CASE WHEN st = 'analyzed' THEN now() END,
                -- Customer sentiment (three decimals, as the analysis writes it): none on the 5 % of mono
                -- calls whose voices were not separated, no trend with too few customer turns (10 % more).
                CASE WHEN st = 'analyzed' AND u7 >= 0.05 THEN round((u8 * 1.6 - 0.7)::numeric, 3) END,
                CASE WHEN st = 'analyzed' AND u7 >= 0.15 THEN round((u9 * 2.4 - 1.1)::numeric, 3) END
           FROM y, a, c, tp`,
        [account.id, CALLS, start, end, YEAR_START],
      );
      note(`  ${end.toLocaleString('en')} calls`);
    }
    await client.query('ALTER TABLE calls ENABLE TRIGGER calls_report_inserted');
    await client.query('ALTER TABLE calls ENABLE TRIGGER calls_notify_updated');
    for (const i of indexes) await client.query(i.def);
    // A person overrode one criterion on 2 % of the analyzed calls (the machine's verdict kept in
    // auto_result, as an override does): what machine agreement (human_checks) reads besides disputes.
    // The rollups are rebuilt below, so their per-row trigger is skipped.
    await client.query('ALTER TABLE calls DISABLE TRIGGER calls_report_updated');
    await client.query(
      `UPDATE calls SET reviewed_at = started_at + interval '1 day',
              criteria = jsonb_set(jsonb_set(criteria, '{0,auto_result}', criteria->0->'result'), '{0,result}',
                                   CASE criteria->0->>'result' WHEN 'passed' THEN '"failed"' ELSE '"passed"' END::jsonb)
        WHERE account_id = $1 AND status = 'analyzed' AND jsonb_typeof(criteria) = 'array'
          AND jsonb_array_length(criteria) > 0 AND random() < 0.02`,
      [account.id],
    );
    await client.query('ALTER TABLE calls ENABLE TRIGGER calls_report_updated');
    // Agents dispute 1 % of the scored calls within two days; 70 % of the disputes are answered
    // (half accepted) within three days, the rest are still open.
    await client.query(
      `INSERT INTO disputes (id, account_id, call_id, criterion_key, status, comment, opened_at, resolved_at)
       SELECT gen_random_uuid(), c.account_id, c.id, 'greeting',
              CASE WHEN c.u < 0.3 THEN 'open' WHEN c.u < 0.65 THEN 'accepted' ELSE 'rejected' END, 'bench',
              c.started_at + (1 + c.v * 47) * interval '1 hour',
              CASE WHEN c.u >= 0.3 THEN c.started_at + (2 + c.v * 47 + c.w * 71) * interval '1 hour' END
         FROM (SELECT id, account_id, started_at, random() AS pick, random() AS u, random() AS v, random() AS w
                 FROM calls WHERE account_id = $1 AND status = 'analyzed') c
        WHERE c.pick < 0.01`,
      [account.id],
    );
    await client.query('VACUUM (ANALYZE) calls, disputes');
    note('building the rollups (report_rebuild)…');
    const t = performance.now();
    await client.query('SELECT report_rebuild($1)', [account.id]);
    const rollupSeconds = round((performance.now() - t) / 1000, 1);
    await client.query('VACUUM (ANALYZE) report_days, report_criteria_days, report_topic_days');
    const { rows: counts } = await client.query<{ days: number; criteria: number; topics: number }>(
      `SELECT (SELECT count(*) FROM report_days)::int AS days, (SELECT count(*) FROM report_criteria_days)::int AS criteria,
              (SELECT count(*) FROM report_topic_days)::int AS topics`,
    );
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM agents WHERE account_id = $1 ORDER BY code LIMIT 1`,
      [account.id],
    );
    return {
      accountId: account.id,
      email: owner.email,
      agentId: rows[0]!.id,
      rollupSeconds,
      rollupRows: counts[0]!,
    };
  } finally {
    await client.end();
  }
}

async function signIn(base: string, email: string): Promise<string> {
  const r = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1' },
    body: JSON.stringify({
      query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { __typename } }',
      variables: { e: email, p: PASSWORD },
    }),
  });
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('escucha_session=') && c.length > 'escucha_session='.length);
  if (!cookie) throw new Error(`sign-in failed (${r.status})`);
  return cookie;
}

async function timed(n: number, run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < n + 2; i++) {
    const t = performance.now();
    await run();
    if (i >= 2) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1) };
}

interface Result {
  range: string;
  query: string;
  p50: number;
  p95: number;
  meets: boolean;
  rows: number;
}
interface Baseline {
  name: string;
  direct: { p50: number; p95: number };
  rollups: { p50: number; p95: number };
}

async function main() {
  const { work, createBenchDb, cleanup } = benchWorkspace('escucha-bench-reports-');
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
  try {
    const db = await createBenchDb();
    note(`seeding ${CALLS.toLocaleString('en')} calls (load average ${load()})…`);
    const t = performance.now();
    const s = await seed(db.url);
    const seedSeconds = round((performance.now() - t) / 1000, 1);
    note(`seeded in ${seedSeconds} s (rollups ${s.rollupSeconds} s: ${JSON.stringify(s.rollupRows)})`);

    const child = await startChild(path.join(here, 'intake-server.ts'), {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      DATA_DIR: path.join(work, 'service'),
      APP_SECRET: BENCH_APP_SECRET,
      PUBLIC_URL: 'https://escucha.example',
    });
    const results: Result[] = [];
    const baseline: Baseline[] = [];
    const loadBefore = load();
    try {
      const cookie = await signIn(child.url, s.email);
      const gql = async (query: string, variables: Record<string, unknown>) => {
        const r = await fetch(`${child.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1', cookie },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await r.json()) as {
          data?: Record<string, { __typename: string; rows?: unknown[] }>;
          errors?: { message: string }[];
        };
        const value = body.data && Object.values(body.data)[0];
        if (r.status !== 200 || body.errors?.length || !value?.rows)
          throw new Error(`GraphQL answered ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return value.rows.length;
      };
      const docs = dashboardDocuments();
      const QUERIES = [
        ['DashboardTrend', true],
        ['DashboardAgents', false],
        ['DashboardCampaigns', false],
        ['DashboardCriteria', false],
        ['DashboardDistribution', false],
        ['DashboardTopics', true],
        ['DashboardSentiment', true],
        ['DashboardDisputes', true],
      ] as const;
      const RANGES = [
        { name: 'last 30 days, by day (the default)', from: addDays(LAST_DAY, -29), interval: 'DAY', extra: {} },
        {
          name: 'last 30 days, one agent',
          from: addDays(LAST_DAY, -29),
          interval: 'DAY',
          extra: { agentIds: [s.agentId] },
        },
        { name: 'last 90 days, by week', from: addDays(LAST_DAY, -89), interval: 'WEEK', extra: {} },
        { name: 'the whole year, by month', from: '2025-01-01', interval: 'MONTH', extra: {} },
      ];
      for (const range of RANGES) {
        for (const [name, withInterval] of QUERIES) {
          const doc = docs.get(name);
          if (!doc) throw new Error(`the dashboard no longer sends ${name}; update bench:reports`);
          const variables = {
            filter: { from: range.from, to: LAST_DAY, includeLanguageMismatch: false, ...range.extra },
            ...(withInterval && { interval: range.interval }),
          };
          let rows = 0;
          const m = await timed(RUNS, async () => {
            rows = await gql(doc, variables);
          });
          results.push({ range: range.name, query: name, ...m, meets: m.p95 <= GOAL_MS, rows });
          note(`  ${range.name} · ${name}: p50 ${m.p50} / p95 ${m.p95} ms`);
        }
      }

      // Machine agreement (issue 31.2): the dashboard's flag sends this document (the last 90 days); the
      // agreement page the same field over any period, here the whole year.
      const flags = /graphql\(\s*`([\s\S]*?)`/.exec(
        readFileSync(path.join(repoRoot, 'src/web/components/machine-agreement.tsx'), 'utf8'),
      )?.[1];
      if (!flags?.includes('MachineAgreementFlags'))
        throw new Error('machine-agreement.tsx no longer sends MachineAgreementFlags; update bench:reports');
      for (const [range, from] of [
        ['last 90 days (the flag)', addDays(LAST_DAY, -89)],
        ['the whole year', '2025-01-01'],
      ] as const) {
        const variables = { from: new Date(`${from}T00:00:00+01:00`).toISOString() };
        let rows = 0;
        const m = await timed(RUNS, async () => {
          rows = await gql(flags, variables);
        });
        results.push({ range, query: 'MachineAgreementFlags', ...m, meets: m.p95 <= GOAL_MS, rows });
        note(`  ${range} · MachineAgreementFlags: p50 ${m.p50} / p95 ${m.p95} ms`);
      }

      // Baseline: the same aggregates straight from calls, and from the rollups, in SQL.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const n = Math.max(3, Math.min(RUNS, 5));
        const pair = async (name: string, direct: string, rollups: string, params: unknown[]) => {
          baseline.push({
            name,
            direct: await timed(n, () => client.query(direct, params)),
            rollups: await timed(n, () => client.query(rollups, params)),
          });
          note(`  baseline ${name}`);
        };
        const calls = `FROM calls c JOIN accounts a ON a.id = c.account_id
          WHERE c.account_id = $1 AND c.status = 'analyzed' AND c.score IS NOT NULL AND NOT c.language_mismatch
            AND c.started_at >= ($2::date)::timestamp AT TIME ZONE a.time_zone
            AND c.started_at < ($3::date + 1)::timestamp AT TIME ZONE a.time_zone`;
        // Day rows only: the simplest reading (the app reads whole months from month rows).
        const rollup = `WHERE r.account_id = $1 AND r.grain = 'day' AND r.day BETWEEN $2::date AND $3::date AND NOT r.language_mismatch`;
        for (const [label, from] of [
          ['30 days', addDays(LAST_DAY, -29)],
          ['a year', '2025-01-01'],
        ] as const) {
          const params = [s.accountId, from, LAST_DAY];
          await pair(
            `score over time, ${label}`,
            `SELECT (c.started_at AT TIME ZONE a.time_zone)::date, count(*), avg(c.score), avg(c.coverage) ${calls} GROUP BY 1`,
            `SELECT r.day, sum(r.calls), sum(r.score_sum) / sum(r.calls), sum(r.coverage_sum) / nullif(sum(r.coverage_calls), 0)
               FROM report_days r ${rollup} GROUP BY 1`,
            params,
          );
          await pair(
            `per agent, ${label}`,
            `SELECT c.agent_id, count(*), avg(c.score) ${calls} GROUP BY 1`,
            `SELECT r.agent_id, sum(r.calls), sum(r.score_sum) / sum(r.calls) FROM report_days r ${rollup} GROUP BY 1`,
            params,
          );
          await pair(
            `customer sentiment over time, ${label}`,
            `SELECT (c.started_at AT TIME ZONE a.time_zone)::date, avg(c.customer_sentiment),
                    count(*) FILTER (WHERE c.customer_sentiment_trend >= 0.1), count(c.customer_sentiment_trend) ${calls} GROUP BY 1`,
            `SELECT r.day, sum(r.customer_sentiment_sum) / nullif(sum(r.customer_sentiment_calls), 0), sum(r.customer_improved),
                    sum(r.customer_trend_calls) FROM report_days r ${rollup} GROUP BY 1`,
            params,
          );
          await pair(
            `per criterion, ${label}`,
            `SELECT e->>'key', count(*) FILTER (WHERE e->>'result' = 'passed'), count(*) FILTER (WHERE e->>'result' = 'failed')
               FROM (SELECT c.criteria ${calls}) x CROSS JOIN jsonb_array_elements(x.criteria) e GROUP BY 1`,
            `SELECT r.criterion, sum(r.passed), sum(r.failed) FROM report_criteria_days r ${rollup} GROUP BY 1`,
            params,
          );
        }
      } finally {
        await client.end();
      }
    } finally {
      await child.stop();
    }
    report(results, baseline, seedSeconds, s, db.server, loadBefore, load());
  } finally {
    await cleanup();
  }
}

function report(
  results: Result[],
  baseline: Baseline[],
  seedSeconds: number,
  s: Seeded,
  server: string,
  loadBefore: string,
  loadAfter: string,
) {
  if (args.json) {
    console.log(
      JSON.stringify(
        {
          benchmark: 'reports',
          node: process.version,
          platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs`,
          postgres: server,
          calls: CALLS,
          runs: RUNS,
          seedSeconds,
          rollupSeconds: s.rollupSeconds,
          rollupRows: s.rollupRows,
          loadAverage: { before: loadBefore, after: loadAfter },
          results,
          baseline,
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    `\nReports — ${CALLS.toLocaleString('en')} calls seeded in ${seedSeconds} s; rollups built in ${s.rollupSeconds} s ` +
      `(${s.rollupRows.days.toLocaleString('en')} day rows, ${s.rollupRows.criteria.toLocaleString('en')} criterion rows, ` +
      `${s.rollupRows.topics.toLocaleString('en')} topic rows); ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${server}; ` +
      `load average (1/5/15 min) ${loadBefore} before the queries, ${loadAfter} after; ${RUNS} runs per case, ms per GraphQL request as the dashboard sends it\n`,
  );
  console.log(
    table(
      ['range', 'query', 'rows', 'p50', 'p95', 'goal p95', ''],
      results.map((r) => [r.range, r.query, r.rows, r.p50, r.p95, `≤ ${GOAL_MS}`, r.meets ? 'ok' : 'MISSED']),
    ),
  );
  console.log(
    '\nThe database alone, same data, same run: the aggregate straight from calls vs from the rollups (ms)\n',
  );
  console.log(
    table(
      ['aggregate', 'calls p50', 'calls p95', 'rollups p50', 'rollups p95', 'rollups / calls (p50)'],
      baseline.map((b) => [
        b.name,
        b.direct.p50,
        b.direct.p95,
        b.rollups.p50,
        b.rollups.p95,
        `${round(b.rollups.p50 / Math.max(0.01, b.direct.p50), 3)}×`,
      ]),
    ),
  );
  const missed = results.filter((r) => !r.meets);
  if (missed.length) console.log(`\n${missed.length} case(s) missed the goal.`);
}

await main();
