// Issue 29 point 3: behind a pooler. A PostgreSQL with a deliberately low max_connections, PgBouncer
// (the Debian package) in transaction pooling mode in front of it, and 2 api + 2 worker processes
// (`src/main.ts --role …`) with DATABASE_URL on PgBouncer and DATABASE_DIRECT_URL on the server for
// what needs a session (LISTEN, graphile-worker, migrations' advisory lock), as
// docs/operations/scaling.md recommends. Calls go in through both apis (some external_ids twice at
// once); every call ends transcribed once and charged once, a revoked key is refused by both apis at once
// (the LISTEN connection), the server never runs out of connections, and no process logs an error.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/accounts/api-keys.ts';
import type { AppContext } from '../../src/context.ts';
import { createDb, type Db } from '../../src/db/client.ts';
import { loadEmbeddedPostgres } from '../../src/db/embedded.ts';
import { makeStereoCall, type Turn } from '../fixtures/audio.ts';
import { postCall } from '../support/intake.ts';
import { type ServiceProcess, startServiceProcess } from '../support/process.ts';
import { seedAccount } from '../support/service.ts';

/** Low on purpose: 2 apis and 2 workers without a pooler would want about 60. */
const MAX_CONNECTIONS = 32;
/** PgBouncer's server connections for the app's queries (all processes together). */
const POOL_SIZE = 6;
const CALLS = Number(process.env.POOLER_TEST_CALLS ?? 12);

let server: { stop(): Promise<void> };
let bouncer: ChildProcess;
let dir: string;
let directUrl: string;
let pooledUrl: string;
let db: Db;
const procs: ServiceProcess[] = [];
let stopSampling = async () => {};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function accepting(port: number): Promise<void> {
  for (let i = 0; ; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    if (i > 200) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  const pgbouncerBin = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => {
    try {
      execFileSync(p, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!pgbouncerBin) throw new Error('PgBouncer is missing: `apt-get install pgbouncer` (scripts/test.sh does it)');

  dir = mkdtempSync(path.join(os.tmpdir(), 'escucha-pooler-'));
  chmodSync(dir, 0o777);
  const pgPort = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const embedded = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    port: pgPort,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', `max_connections=${MAX_CONNECTIONS}`],
    onLog: () => {},
    onError: () => {},
  });
  await embedded.initialise();
  await embedded.start();
  await embedded.createDatabase('escucha');
  server = embedded;
  directUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/escucha`;

  const bouncerPort = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `escucha = host=127.0.0.1 port=${pgPort} dbname=escucha user=postgres password=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${bouncerPort}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${POOL_SIZE}`,
      `max_db_connections = ${POOL_SIZE}`,
      'max_client_conn = 1000',
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  chmodSync(ini, 0o644);
  // PgBouncer refuses to run as root: as root it runs as the postgres user.
  const asRoot = process.getuid?.() === 0;
  bouncer = spawn(pgbouncerBin, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  await accepting(bouncerPort);
  pooledUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/escucha`;
  db = createDb(directUrl, { max: 2 });
}, 120_000);

afterAll(async () => {
  await stopSampling();
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await db?.$disconnect();
  if (bouncer && bouncer.exitCode === null) {
    const gone = new Promise((r) => bouncer.once('close', r));
    bouncer.kill('SIGINT');
    await gone;
  }
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function start(role: 'api' | 'worker') {
  return startServiceProcess(
    {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: pooledUrl,
      DATABASE_DIRECT_URL: directUrl,
      DATA_DIR: path.join(dir, 'data'),
      PORT: '0',
      APP_SECRET: 'test-secret-'.padEnd(48, 'x'),
      WORKER_CONCURRENCY: '2',
      // All the calls go in at once on one key: above the per-key cap's default, which is not under test here.
      INTAKE_MAX_CONCURRENT_PER_KEY: '100',
    },
    ['--role', role],
  ).then((p) => {
    procs.push(p);
    return p;
  });
}

const SHORT: Turn[] = [
  { speaker: 'agent', voice: 'en', text: 'Good morning, this is Ana from support. How can I help you today?' },
  { speaker: 'customer', voice: 'en', text: 'Hello, I have a question about my invoice.' },
];

it('2 apis + 2 workers through PgBouncer (transaction pooling) on a server with few connections lose nothing', async () => {
  // The first process applies the migrations (on the direct address); the others start beside it.
  const first = await start('api');
  const [second, w1, w2] = await Promise.all([start('api'), start('worker'), start('worker')]);
  const apis = [first, second];
  const s = await seedAccount({ app: { db } as AppContext });

  // The peak of server connections, sampled all along.
  const admin = new pg.Client({ connectionString: directUrl, application_name: 'test-sampler' });
  await admin.connect();
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend'`,
      );
      peak = Math.max(peak, rows[0]!.n);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  stopSampling = async () => {
    sampling = false;
    await sampler.catch(() => {});
    await admin.end().catch(() => {});
  };

  const file = await makeStereoCall(SHORT);
  const send = (api: ServiceProcess, externalId: string) =>
    postCall(api.url, {
      key: s.key,
      fields: { agent_code: 'AG-07', external_id: externalId, language: 'en' },
      file: { path: file },
    });
  // Every call through one api, and a third of them sent again through the other at the same moment.
  const answers = await Promise.all(
    Array.from({ length: CALLS }, (_, i) => [
      send(apis[i % 2]!, `pooled-${i}`),
      ...(i % 3 === 0 ? [send(apis[(i + 1) % 2]!, `pooled-${i}`)] : []),
    ]).flat(),
  );
  for (const a of answers) expect([200, 201], JSON.stringify(a.body)).toContain(a.status);
  const ids = new Set(answers.map((a) => a.body.id as string));
  expect(ids.size).toBe(CALLS);

  const deadline = Date.now() + 400_000;
  let ended = 0;
  while (Date.now() < deadline) {
    const { rows } = await admin.query<{ n: number }>(
      // The seeded account has no QA template: a call ends transcribed (analyzed when it has one).
      `SELECT count(*)::int AS n FROM calls WHERE account_id = $1 AND status IN ('transcribed', 'analyzed')`,
      [s.account.id],
    );
    ended = rows[0]!.n;
    if (ended === CALLS) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(ended).toBe(CALLS);
  // Charged once each: one reservation and one settlement per call in the ledger.
  const { rows: ledger } = await admin.query<{ call_id: string; n: number }>(
    `SELECT call_id, count(*)::int AS n FROM minute_ledger WHERE account_id = $1 GROUP BY 1`,
    [s.account.id],
  );
  expect(ledger).toHaveLength(CALLS);
  expect(new Set(ledger.map((r) => r.n)).size).toBe(1);

  // The change feeds listen on the direct address: a revocation reaches both apis at once.
  await revokeApiKey(db, s.account.id, s.key.slice(0, 12));
  for (const api of apis) {
    let status = 0;
    for (const until = Date.now() + 2000; Date.now() < until; ) {
      status = (await send(api, 'after-revoke')).status;
      if (status === 401) break;
    }
    expect(status).toBe(401);
  }

  sampling = false;
  await sampler;
  console.log(`peak server connections through PgBouncer: ${peak} of max_connections ${MAX_CONNECTIONS}`);
  expect(peak).toBeLessThan(MAX_CONNECTIONS);
  const { rows: byName } = await admin.query<{ name: string; n: number }>(
    `SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' GROUP BY 1 ORDER BY 1`,
  );
  console.log('server connections now by application_name:', JSON.stringify(byName));
  await stopSampling();

  for (const p of [first, second, w1, w2]) p.child.kill('SIGTERM');
  expect(await Promise.all([first, second, w1, w2].map((p) => p.exited))).toEqual([0, 0, 0, 0]);
  const errors = procs.flatMap((p) => p.logs.filter((l) => l.level >= 50));
  expect(errors.map((l) => l.msg)).toEqual([]);
}, 600_000);
