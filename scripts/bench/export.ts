// `npm run bench:export [-- --json] [-- --rows 100000 --small-rows 10000]`
//
// Throughput and memory of GET /api/calls/export.csv. Seeds two accounts in a throwaway database
// straight with SQL (generate_series): one with --rows analyzed calls, one with --small-rows; then,
// for each, starts the real service (api role) in a fresh child process, signs in, takes a 0-row
// export as warm-up (so "idle" already includes loaded code and a used DB pool), records that idle
// peak RSS, downloads the full export as a stream (counting bytes and rows, keeping nothing), and
// asks the child for its peak RSS again. The export must stream: a WARNING is printed when the
// large run's peak RSS exceeds 1.5× the small run's, i.e. when memory grows with the row count.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createSession } from '../../src/auth/session.ts';
import { createDb } from '../../src/db/client.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { BENCH_APP_SECRET, type BenchDb, benchWorkspace, MiB, note, round, startChild, table } from './lib.ts';

// `npm run bench` passes every bench the same arguments: unknown ones belong to other benches.
const { values: args } = parseArgs({
  strict: false,
  options: {
    json: { type: 'boolean', default: false },
    rows: { type: 'string', default: '100000' },
    'small-rows': { type: 'string', default: '10000' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log('usage: npm run bench:export -- [--json] [--rows 100000] [--small-rows 10000]');
  process.exit(0);
}
const LARGE = positive('rows');
const SMALL = positive('small-rows');
const PASSWORD = 'bench-password-1234';
const RSS_GROWTH_LIMIT = 1.5;
const here = import.meta.dirname;

function positive(name: 'rows' | 'small-rows'): number {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number ≥ 1`);
    process.exit(2);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

interface Seeded {
  accountId: string;
  email: string;
  userId: string;
  rows: number;
}

/** An account whose owner has a known password, 20 agents, 3 campaigns and `rows` calls (1 in 10 transcribed, not analyzed). */
async function seed(url: string, name: string, rows: number): Promise<Seeded> {
  const prisma = createDb(url, { max: 2 });
  const { account, owner } = await createAccount(prisma, {
    name,
    minutes: 1_000_000_000,
    seats: 100,
    timeZone: 'Europe/Madrid',
  });
  const user = await prisma.user.update({
    where: { email: owner.email },
    data: { passwordHash: await hashPassword(PASSWORD) },
  });
  await prisma.$disconnect();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO agents (id, account_id, name, name_normalized, code, code_normalized)
       SELECT gen_random_uuid(), $1, 'Agente ' || g, 'agente' || g, 'AG-' || g, 'ag' || g FROM generate_series(1, 20) g`,
      [account.id],
    );
    await client.query(
      `INSERT INTO campaigns (id, account_id, name, name_normalized, language)
       SELECT gen_random_uuid(), $1, 'Campaña ' || g, 'campana' || g, 'es' FROM generate_series(1, 3) g`,
      [account.id],
    );
    // Realistic widths: four criteria with evidence quotes, a two-sentence summary, a "+34…" phone
    // (which the export must neutralise), a customer name with accents.
    await client.query(
      `WITH a AS (SELECT array_agg(id ORDER BY name) AS ids FROM agents WHERE account_id = $1),
            c AS (SELECT array_agg(id ORDER BY name) AS ids FROM campaigns WHERE account_id = $1)
       INSERT INTO calls (id, account_id, external_id, source, status, agent_id, campaign_id, started_at, customer_phone,
                          customer_name, direction, language, file_name, file_size, file_sha256, content_type, storage_key,
                          duration_seconds, channels, reserved_minutes, used_minutes, period, score, topic, summary, criteria,
                          analyzed_at)
       SELECT gen_random_uuid(), $1, 'crm-' || g, 'api',
              (CASE WHEN g % 10 = 0 THEN 'transcribed' ELSE 'analyzed' END)::"CallStatus",
              a.ids[1 + g % 20], CASE WHEN g % 4 = 0 THEN NULL ELSE c.ids[1 + g % 3] END,
              timestamptz '2025-01-01' + g * interval '37 seconds', '+34' || (600000000 + g), 'Cliente Núñez ' || g,
              (CASE WHEN g % 2 = 0 THEN 'inbound' ELSE 'outbound' END)::"CallDirection", 'es',
              'out-' || (600000000 + g) || '-1001-20250101-103000.wav', 1048576, md5(g::text) || md5((g + 1)::text),
              'audio/wav', 'bench/' || g || '.wav', 60 + g % 600, 2, 1, 1 + g % 10, '2025-01',
              CASE WHEN g % 10 = 0 THEN NULL ELSE (g::bigint * 7919) % 1001 / 10.0 END,
              CASE WHEN g % 10 = 0 THEN NULL ELSE (ARRAY['billing', 'cancellation', 'technical', 'sales'])[1 + g % 4] END,
              CASE WHEN g % 10 = 0 THEN NULL ELSE 'El cliente llama por una factura duplicada del mes anterior. ' ||
                   'La agente revisa la cuenta, confirma el error y tramita el abono en el momento.' END,
              CASE WHEN g % 10 = 0 THEN NULL ELSE jsonb_build_array(
                jsonb_build_object('key', 'greeting', 'label', 'Saludo', 'kind', 'phrase', 'result', 'passed', 'points', 5, 'max_points', 5, 'critical', false,
                  'evidence', jsonb_build_array(jsonb_build_object('quote', 'Buenos días, le atiende Ana', 'start', 0.4, 'end', 2.1, 'speaker', 'agent'))),
                jsonb_build_object('key', 'identify', 'label', 'Identificación', 'kind', 'phrase', 'result', CASE WHEN g % 3 = 0 THEN 'failed' ELSE 'passed' END,
                  'points', 3, 'max_points', 3, 'critical', true, 'evidence', '[]'::jsonb),
                jsonb_build_object('key', 'talk_ratio', 'label', 'Ratio de habla', 'kind', 'metric', 'result', 'na', 'points', 0, 'max_points', 0, 'critical', false, 'evidence', '[]'::jsonb),
                jsonb_build_object('key', 'closing', 'label', 'Despedida', 'kind', 'llm', 'result', 'passed', 'points', 2, 'max_points', 2, 'critical', false,
                  'evidence', jsonb_build_array(jsonb_build_object('quote', '¿Puedo ayudarle en algo más?', 'start', 118.2, 'end', 120.0, 'speaker', 'agent'))))
              END,
              CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
         FROM generate_series(1, $2::int) g, a, c`,
      [account.id, rows],
    );
    await client.query('ANALYZE calls');
  } finally {
    await client.end();
  }
  return { accountId: account.id, email: owner.email, userId: user.id, rows };
}

// ---------------------------------------------------------------------------------------------
// Client side
// ---------------------------------------------------------------------------------------------

/**
 * Signs in through GraphQL's signIn mutation when the api serves it; otherwise opens the session
 * directly (createSession — what signIn does once the password checks out).
 */
async function signIn(base: string, dbUrl: string, who: Seeded): Promise<{ cookie: string; how: string }> {
  try {
    const r = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-escucha-csrf': '1' },
      body: JSON.stringify({
        query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { __typename } }',
        variables: { e: who.email, p: PASSWORD },
      }),
    });
    const cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('escucha_session=') && c.length > 'escucha_session='.length);
    if (r.ok && cookie) return { cookie, how: 'graphql signIn' };
  } catch {
    // fall through
  }
  const prisma = createDb(dbUrl, { max: 1 });
  try {
    const { token } = await createSession(prisma, who.userId);
    return { cookie: `escucha_session=${token}`, how: 'session row (no /graphql)' };
  } finally {
    await prisma.$disconnect();
  }
}

interface Download {
  status: number;
  bytes: number;
  rows: number;
  seconds: number;
}

/** Reads the export as it arrives, counting bytes and CRLF-terminated lines; nothing is kept. */
function download(base: string, cookie: string, query = ''): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(`${base}/api/calls/export.csv${query}`, { headers: { cookie } }, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          rows: Math.max(0, lines - 1),
          seconds: (performance.now() - started) / 1000,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

interface Result {
  label: string;
  rows: number;
  expectedRows: number;
  mb: number;
  seconds: number;
  rowsPerSecond: number;
  idleRssMB: number;
  peakRssMB: number;
  growthMB: number;
  signIn: string;
}

async function measure(label: string, who: Seeded, db: BenchDb, work: string): Promise<Result> {
  note(`${label}: starting the service…`);
  const child = await startChild(path.join(here, 'intake-server.ts'), {
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    DATA_DIR: path.join(work, label.replace(/\W+/g, '-')),
    APP_SECRET: BENCH_APP_SECRET,
    PUBLIC_URL: 'https://escucha.example',
  });
  try {
    const { cookie, how } = await signIn(child.url, db.url, who);
    const warm = await download(child.url, cookie, '?scoreMin=1000');
    if (warm.status !== 200) throw new Error(`warm-up export answered ${warm.status}`);
    const idle = await child.maxRss();
    note(`${label}: downloading ${who.rows.toLocaleString('en')} rows…`);
    const d = await download(child.url, cookie);
    if (d.status !== 200) throw new Error(`export answered ${d.status}`);
    const peak = await child.maxRss();
    return {
      label,
      rows: d.rows,
      expectedRows: who.rows,
      mb: round(d.bytes / MiB, 1),
      seconds: round(d.seconds, 2),
      rowsPerSecond: Math.round(d.rows / d.seconds),
      idleRssMB: round(idle / MiB, 1),
      peakRssMB: round(peak / MiB, 1),
      growthMB: round((peak - idle) / MiB, 1),
      signIn: how,
    };
  } finally {
    await child.stop();
  }
}

async function main() {
  const { work, createBenchDb, cleanup } = benchWorkspace('escucha-bench-export-');
  try {
    const db = await createBenchDb();
    let t = performance.now();
    const large = await seed(db.url, 'Bench Large', LARGE);
    const small = await seed(db.url, 'Bench Small', SMALL);
    note(`seeded ${(LARGE + SMALL).toLocaleString('en')} calls in ${round((performance.now() - t) / 1000, 1)} s`);
    t = performance.now();
    const results = [await measure(`${SMALL} rows`, small, db, work), await measure(`${LARGE} rows`, large, db, work)];
    report(results, db.server);
    if (results.some((r) => r.rows !== r.expectedRows)) {
      console.error(`row count mismatch: ${results.map((r) => `${r.label}: got ${r.rows}`).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

function report(results: Result[], server: string) {
  const [small, large] = results as [Result, Result];
  const peakRatio = round(large.peakRssMB / small.peakRssMB, 2);
  const warning =
    peakRatio > RSS_GROWTH_LIMIT
      ? `WARNING: peak RSS exporting ${large.rows} rows (${large.peakRssMB} MB) exceeds ${RSS_GROWTH_LIMIT}× the peak for ${small.rows} rows (${small.peakRssMB} MB): memory grows with the result size.`
      : null;
  if (args.json) {
    console.log(
      JSON.stringify(
        {
          benchmark: 'export',
          node: process.version,
          platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs`,
          postgres: server,
          results,
          peakRssRatioLargeOverSmall: peakRatio,
          rowsRatio: round(large.rows / small.rows, 1),
          warning,
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    `\nGET /api/calls/export.csv — ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${server}; each run in a fresh api process\n`,
  );
  console.log(
    table(
      ['run', 'rows', 'MB', 'seconds', 'rows/s', 'idle RSS MB', 'peak RSS MB', 'peak − idle MB'],
      results.map((r) => [r.label, r.rows, r.mb, r.seconds, r.rowsPerSecond, r.idleRssMB, r.peakRssMB, r.growthMB]),
    ),
  );
  console.log(
    `\npeak RSS ${large.label} / ${small.label}: ${peakRatio}× for ${round(large.rows / small.rows, 1)}× the rows (sign-in: ${large.signIn})`,
  );
  if (warning) console.log(`\n${warning}`);
}

await main();
