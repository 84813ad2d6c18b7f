// `npm run bench:hotrows [-- --json] [-- --apis 4 --concurrency 16 --seconds 20 --accounts 16]`
//
// Hot rows (issue 29.5): every intake of an account updates the same `rate_limits` row (its per-minute
// counter) and the same `usage_periods` row (its month's reservation), and takes its key's intake
// lease lock. This drives ONE account from `--apis` api processes (`src/main.ts --role api`, real
// processes on one PostgreSQL) with `--concurrency` uploads in flight, then the same load spread over
// `--accounts` accounts (one row each: no contention), and reports throughput, latency, and the share
// of sampled database backends that were waiting for a lock, by the row they wanted. The cost of the
// hot rows is the throughput lost by the one account against the spread load; the page
// docs/benchmarks/hotrows.md states the decision it supports (counters are spread only above 10 %).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createAgent } from '../../src/accounts/agents.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { createDb } from '../../src/db/client.ts';
import { benchWorkspace, note, percentile, repoRoot, round, table } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    apis: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '20' },
    accounts: { type: 'string', default: '16' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log('usage: npm run bench:hotrows -- [--json] [--apis 4] [--concurrency 16] [--seconds 20] [--accounts 16]');
  process.exit(0);
}
function positive(name: 'apis' | 'concurrency' | 'seconds' | 'accounts'): number {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number ≥ 1`);
    process.exit(2);
  }
  return n;
}
const APIS = positive('apis');
const CONCURRENCY = positive('concurrency');
const SECONDS = positive('seconds');
const ACCOUNTS = positive('accounts');
/** Above this share of lost throughput, the counters are worth spreading (the rule). */
const SPREAD_ABOVE = 0.1;
const AGENT_CODE = 'HOT-01';
/** A 2-second 8 kHz mono WAV: small, so the database, not the upload, is what is measured. */
const WAV_BYTES = 44 + 2 * 8000 * 2;

function wav(): Buffer {
  const b = Buffer.alloc(WAV_BYTES);
  b.write('RIFF', 0);
  b.writeUInt32LE(WAV_BYTES - 8, 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(WAV_BYTES - 44, 40);
  const noise = randomBytes(WAV_BYTES - 44);
  for (let i = 1; i < noise.length; i += 2) noise[i] = noise[i]! & 0x01 ? 0xff : 0x00;
  noise.copy(b, 44);
  return b;
}

interface Api {
  child: ChildProcess;
  url: string;
}

function startApi(env: Record<string, string>): Promise<Api> {
  const child = spawn(process.execPath, ['src/main.ts', '--role', 'api'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`an api exited with ${code}: ${stderr}`)));
    // Its log is read to the end (a full pipe would stall it); the start line gives its address.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'api listening') resolve({ child, url: entry.url! });
      } catch {}
    });
  });
}

function post(
  agent: http.Agent,
  url: string,
  key: string,
  file: Buffer,
  n: number,
): Promise<{ ok: boolean; ms: number; status: number }> {
  const boundary = `----hot-${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="agent_code"\r\n\r\n${AGENT_CODE}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="hot-${n}.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(`${url}/v1/calls`, {
      method: 'POST',
      agent,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ ok: res.statusCode === 201, ms: performance.now() - started, status: res.statusCode ?? 0 }),
      );
    });
    req.on('error', () => resolve({ ok: false, ms: performance.now() - started, status: 0 }));
    req.end(body);
  });
}

interface Sample {
  active: number;
  waiting: Record<string, number>;
}

/** Database backends of the bench database, every 20 ms: how many ran a statement, how many waited for a lock, on what. */
function sampleLocks(url: string) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-sampler' });
  const samples: Sample[] = [];
  let on = true;
  const done = (async () => {
    await client.connect();
    while (on) {
      const { rows } = await client.query<{
        query: string;
        wait: string | null;
        locktype: string | null;
        relation: string | null;
      }>(
        `SELECT a.query, a.wait_event_type AS wait,
                (SELECT l.locktype FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted LIMIT 1) AS locktype,
                -- A row lock is waited for holding (or queueing for) the row's tuple lock: it names the table.
                (SELECT c.relname FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                  WHERE l.pid = a.pid AND l.locktype = 'tuple' LIMIT 1) AS relation
           FROM pg_stat_activity a
          WHERE a.datname = current_database() AND a.state = 'active' AND a.pid <> pg_backend_pid()
            AND a.application_name LIKE 'escucha-%'`,
      );
      const waiting: Record<string, number> = {};
      for (const r of rows) {
        if (r.wait !== 'Lock') continue;
        // What it waits for: a table's row (its tuple lock names the table); the key's intake-lease
        // lock (advisory); PostgreSQL's one queue of notifications, which a committing transaction
        // that sent NOTIFY locks (an 'object' lock on the database: the calls trigger notifies live
        // updates); or another transaction's upsert of the same key (INSERT … ON CONFLICT waits on
        // the transaction, no tuple lock), or a stripe's row inside rate_take() / usage_reserve()
        // (their stripes, issue 29.5): told apart by the statement.
        const what =
          r.relation ??
          (r.locktype === 'advisory'
            ? 'intake_leases'
            : r.locktype === 'object'
              ? 'notify queue'
              : r.locktype === 'transactionid' && /rate_limits|rate_take/.test(r.query)
                ? 'rate_limits'
                : r.locktype === 'transactionid' && /usage_periods|usage_reserve/.test(r.query)
                  ? 'usage_periods'
                  : `other (${r.locktype})`);
        waiting[what] = (waiting[what] ?? 0) + 1;
      }
      samples.push({ active: rows.length, waiting });
      await new Promise((r) => setTimeout(r, 20));
    }
    await client.end();
  })();
  return {
    async stop() {
      on = false;
      await done;
      const active = samples.reduce((s, x) => s + x.active, 0);
      const by: Record<string, number> = {};
      for (const s of samples) for (const [k, v] of Object.entries(s.waiting)) by[k] = (by[k] ?? 0) + v;
      const share = (n: number) => round((100 * n) / Math.max(1, active), 1);
      return {
        samples: samples.length,
        activeBackends: active,
        lockWaitPercent: share(Object.values(by).reduce((a, b) => a + b, 0)),
        byCount: by,
      };
    },
  };
}

async function drive(apis: Api[], keys: string[], file: Buffer, dbUrl: string) {
  const agents = apis.map(() => new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY }));
  // Warm-up: JIT, pools, prepared statements on every process.
  await Promise.all(
    apis.flatMap((a, i) => Array.from({ length: 4 }, (_, n) => post(agents[i]!, a.url, keys[0]!, file, n))),
  );
  const sampler = sampleLocks(dbUrl);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let n = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, slot) => {
      const api = slot % apis.length;
      const key = keys[slot % keys.length]!;
      while (performance.now() < until) {
        const r = await post(agents[api]!, apis[api]!.url, key, file, n++);
        if (r.ok) latencies.push(r.ms);
        else statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const locks = await sampler.stop();
  for (const a of agents) a.destroy();
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    failed: statuses,
    callsPerSecond: round(latencies.length / seconds, 1),
    p50Ms: round(percentile(latencies, 50), 1),
    p95Ms: round(percentile(latencies, 95), 1),
    ...locks,
  };
}

/** Two runs of one load as one: summed calls and samples, mean rates. */
function merge(rs: Awaited<ReturnType<typeof drive>>[]) {
  const activeBackends = rs.reduce((s, r) => s + r.activeBackends, 0);
  const waits: Record<string, number> = {};
  for (const r of rs) for (const [k, v] of Object.entries(r.byCount)) waits[k] = (waits[k] ?? 0) + v;
  const share = (n: number) => round((100 * n) / Math.max(1, activeBackends), 1);
  const failed: Record<string, number> = {};
  for (const r of rs) for (const [k, v] of Object.entries(r.failed)) failed[k] = (failed[k] ?? 0) + v;
  return {
    calls: rs.reduce((s, r) => s + r.calls, 0),
    failed,
    callsPerSecond: round(rs.reduce((s, r) => s + r.callsPerSecond, 0) / rs.length, 1),
    callsPerSecondByRun: rs.map((r) => r.callsPerSecond),
    p50Ms: round(rs.reduce((s, r) => s + r.p50Ms, 0) / rs.length, 1),
    p95Ms: round(rs.reduce((s, r) => s + r.p95Ms, 0) / rs.length, 1),
    activeBackends,
    lockWaitPercent: share(Object.values(waits).reduce((a, b) => a + b, 0)),
    byRow: Object.fromEntries(Object.entries(waits).map(([k, v]) => [k, share(v)])),
  };
}

async function main() {
  const { work, createBenchDb, cleanup } = benchWorkspace('escucha-hotrows-');
  const apis: Api[] = [];
  try {
    note('preparing a throwaway database and accounts…');
    const db = await createBenchDb();
    const prisma = createDb(db.url, { max: 2 });
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const { account } = await createAccount(prisma, {
        name: `Hot ${i}`,
        minutes: 2_000_000_000,
        seats: 10,
        timeZone: 'UTC',
      });
      await createAgent(prisma, account.id, { name: 'Hot Agent', code: AGENT_CODE });
      keys.push((await createApiKey(prisma, account.id)).key);
    }
    await prisma.$disconnect();
    const file = wav();
    writeFileSync(path.join(work, 'hot.wav'), file);
    note(`starting ${APIS} api processes…`);
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: path.join(work, 'data'),
      NODE_ENV: 'test',
      APP_SECRET: 'bench-secret-'.padEnd(48, 'x'),
      // The limits themselves are not measured: high enough never to refuse.
      INTAKE_RATE_PER_MINUTE: '1000000',
      INTAKE_MAX_CONCURRENT_PER_KEY: '1000',
    };
    // One first (it migrates), then the rest side by side.
    apis.push(await startApi(env));
    apis.push(...(await Promise.all(Array.from({ length: APIS - 1 }, () => startApi(env)))));

    // Alternated, twice each, so a machine that gets busier or quieter mid-run weighs on both alike.
    const runs: { one: Awaited<ReturnType<typeof drive>>[]; spread: Awaited<ReturnType<typeof drive>>[] } = {
      one: [],
      spread: [],
    };
    for (let round_ = 1; round_ <= 2; round_++) {
      note(`round ${round_}: one account, ${CONCURRENCY} uploads in flight over ${APIS} apis for ${SECONDS} s…`);
      runs.one.push(await drive(apis, keys.slice(0, 1), file, db.url));
      note(`round ${round_}: ${ACCOUNTS} accounts, the same load spread…`);
      runs.spread.push(await drive(apis, keys, file, db.url));
    }
    const one = merge(runs.one);
    const spread = merge(runs.spread);
    const cost = spread.callsPerSecond > 0 ? 1 - one.callsPerSecond / spread.callsPerSecond : 0;
    const decision =
      cost > SPREAD_ABOVE
        ? `the hot rows cost ${round(100 * cost, 1)} % of intake throughput (> ${100 * SPREAD_ABOVE} %): spread the counters`
        : `the hot rows cost ${round(100 * cost, 1)} % of intake throughput (≤ ${100 * SPREAD_ABOVE} %): the counters as they are hold intake within the rule`;
    const result = {
      apis: APIS,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      oneAccount: one,
      spreadOverAccounts: { accounts: ACCOUNTS, ...spread },
      hotRowCostPercent: round(100 * cost, 1),
      decision,
    };
    if (args.json) console.log(JSON.stringify(result, null, 2));
    else {
      const rows = [...new Set([...Object.keys(one.byRow), ...Object.keys(spread.byRow)])].sort();
      console.log(
        table(
          [
            'load',
            'calls/s (runs)',
            'p50 ms',
            'p95 ms',
            'backends waiting for a lock, %',
            ...rows.map((r) => `… on ${r}`),
            'failed',
          ],
          [one, spread].map((r, i) => [
            i === 0 ? '1 account' : `${ACCOUNTS} accounts`,
            `${r.callsPerSecond} (${r.callsPerSecondByRun.join(', ')})`,
            r.p50Ms,
            r.p95Ms,
            r.lockWaitPercent,
            ...rows.map((k) => r.byRow[k] ?? 0),
            JSON.stringify(r.failed),
          ]),
        ),
      );
      console.log(
        `\n${APIS} apis, ${CONCURRENCY} uploads in flight, 2 runs of ${SECONDS} s per load. Decision: ${decision}.`,
      );
    }
  } finally {
    await Promise.all(
      apis.map((a) => {
        const gone = once(a.child, 'exit');
        a.child.kill('SIGTERM');
        return gone;
      }),
    );
    await cleanup();
  }
}

await main();
