// Issue 29 points 2 and 4, with real processes (`src/main.ts --role …`) on one PostgreSQL:
// - each process holds the PostgreSQL connections docs/operations/scaling.md gives, counted in
//   pg_stat_activity per application_name under load (uploads, GraphQL reads, live updates open,
//   jobs running): one LISTEN connection per api process for every change feed;
// - INTAKE_MAX_CONCURRENT_PER_KEY holds across two api processes, and the slots of an api process
//   killed with SIGKILL free themselves within INTAKE_LEASE_SECONDS.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { APP_POOL_SIZE } from '../../src/db/client.ts';
import { jobPoolSize } from '../../src/jobs/job-pool.ts';
import { makeStereoCall, type Turn } from '../fixtures/audio.ts';
import { Browser } from '../graphql/support.ts';
import type { TestDb } from '../support/db.ts';
import { describe, expect, test } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import type { ServiceProcess } from '../support/process.ts';
import { multipart } from '../support/raw-http.ts';

/** Uploads at once on the api (each then transcribed by the worker: the speech model runs on a 2-core machine). */
const UPLOADS = 6;
/** The job pool graphile-worker runs on in a worker process of this test's WORKER_CONCURRENCY, its LISTEN for new jobs included. */
const JOBS_POOL_SIZE = jobPoolSize(2);

let t: TestDb;
let start: (role: 'api' | 'worker', env?: Record<string, string>) => Promise<ServiceProcess>;

test.beforeAll(({ db, serviceProcess }) => {
  t = db;
  start = (role, env) => serviceProcess({ args: ['--role', role], env });
});

const SHORT: Turn[] = [
  { speaker: 'agent', voice: 'en', text: 'Good morning, this is Ana from support. How can I help you today?' },
  { speaker: 'customer', voice: 'en', text: 'Hello, I have a question about my invoice.' },
];

/** An upload whose body is half sent: it holds its slot until `finish()`. */
async function heldUpload(url: string, key: string, file: Buffer) {
  const boundary = 'held-upload';
  const body = multipart(boundary, [
    { name: 'agent_code', data: 'AG-07' },
    { name: 'file', filename: 'held.wav', type: 'audio/wav', data: file },
  ]);
  const { port, hostname } = new URL(url);
  const req = http.request({
    host: hostname,
    port,
    method: 'POST',
    path: '/v1/calls',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': body.length,
    },
  });
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
  answered.catch(() => {});
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return {
    finish() {
      req.end(body.subarray(half));
      return answered;
    },
  };
}

async function leases(keyPrefix?: string): Promise<number> {
  const [row] = await t.sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM intake_leases l JOIN api_keys k ON k.id = l.key_id
      WHERE expires_at > now() AND ($1::text IS NULL OR k.prefix = $1)`,
    [keyPrefix ?? null],
  );
  return row!.n;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('connections per process', () => {
  test('an api process holds at most 10 pooled + 1 LISTEN connection, a worker 10 + graphile-worker’s 10, under load', async ({
    app,
    seed,
  }) => {
    const [api, worker] = await Promise.all([start('api'), start('worker', { WORKER_CONCURRENCY: '2' })]);
    const s = await seed();
    await app.db.user.update({
      where: { email: s.owner.email },
      data: { passwordHash: await hashPassword('correct horse battery') },
    });
    const browser = new Browser(`${api.url}/graphql`);
    await browser.signIn(s.owner.email, 'correct horse battery');

    // The peak of each kind of connection, sampled all along.
    const peak = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows = await t.sql<{ name: string; n: number }>(
          `SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND application_name LIKE 'escucha-%' GROUP BY 1`,
        );
        for (const r of rows) peak.set(r.name, Math.max(peak.get(r.name) ?? 0, r.n));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    // Live updates open (a GraphQL subscription), then uploads and reads at once on the api while
    // the worker transcribes.
    const live = new AbortController();
    const stream = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      signal: live.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'x-escucha-csrf': browser.csrf!,
        cookie: browser.cookie!,
      },
      body: JSON.stringify({ query: 'subscription { callUpdated { id status } }' }),
    });
    expect(stream.status).toBe(200);
    const updates = stream.body!.getReader();
    let heard = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await updates.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        heard += new TextDecoder().decode(value);
      }
    })();

    const file = await makeStereoCall(SHORT);
    const uploads = Array.from({ length: UPLOADS }, (_, i) =>
      postCall(api.url, {
        key: s.key,
        fields: { agent_code: 'AG-07', external_id: `load-${i}` },
        file: { path: file },
      }),
    );
    const reads = Array.from({ length: 30 }, () =>
      browser.gql('{ calls(first: 20) { edges { node { id status score } } } callFilterOptions { topics } }'),
    );
    const answers = await Promise.all(uploads);
    expect(answers.map((a) => a.status)).toEqual(Array(UPLOADS).fill(201));
    for (const r of await Promise.all(reads)) expect(r.body.errors).toBeUndefined();
    const ids = answers.map((a) => a.body.id as string);
    const done = await until(
      // No QA template on the seeded account: a call ends transcribed.
      () =>
        t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM calls WHERE id = ANY($1) AND status = 'transcribed'`, [
          ids,
        ]),
      (r) => r[0]!.n === ids.length,
      360_000,
    );
    expect(done[0]!.n).toBe(ids.length);
    // The live updates arrived over the same one LISTEN connection.
    await until(
      async () => heard,
      (h) => h.includes('TRANSCRIBED'),
    );
    expect(heard).toContain('TRANSCRIBED');
    live.abort();
    await reading;
    sampling = false;
    await sampler;

    const figures = Object.fromEntries([...peak].sort());
    console.log('peak PostgreSQL connections by application_name:', JSON.stringify(figures));
    // One LISTEN connection for the api process's four change feeds; none on the worker.
    expect(peak.get('escucha-api-listen')).toBe(1);
    expect(peak.has('escucha-worker-listen')).toBe(false);
    const api_ = (peak.get('escucha-api') ?? 0) + (peak.get('escucha-api-listen') ?? 0);
    const worker_ = (peak.get('escucha-worker') ?? 0) + (peak.get('escucha-worker-jobs') ?? 0);
    expect(api_).toBeLessThanOrEqual(APP_POOL_SIZE + 1);
    expect(peak.get('escucha-worker') ?? 0).toBeLessThanOrEqual(APP_POOL_SIZE);
    expect(peak.get('escucha-worker-jobs') ?? 0).toBeLessThanOrEqual(JOBS_POOL_SIZE);
    expect(worker_).toBeLessThanOrEqual(APP_POOL_SIZE + JOBS_POOL_SIZE);
    // Nothing else connects: every connection of the processes is one of these kinds.
    expect(Object.keys(figures).sort()).toEqual([
      'escucha-api',
      'escucha-api-listen',
      'escucha-worker',
      'escucha-worker-jobs',
    ]);

    for (const p of [api, worker]) p.child.kill('SIGTERM');
    expect(await Promise.all([api.exited, worker.exited])).toEqual([0, 0]);
  }, 540_000);
});

describe('INTAKE_MAX_CONCURRENT_PER_KEY across api processes', () => {
  test('holds across two apis, and the slots of an api killed with SIGKILL free themselves within INTAKE_LEASE_SECONDS', async ({
    seed,
  }) => {
    // The lease must outlast a SIGKILL, the wait for the exit and one request on a loaded machine
    // (renewed every third of it, so it ends 6–9 s after the kill): at 3 s, CI once saw it expire first.
    const leaseSeconds = 9;
    const env = { INTAKE_MAX_CONCURRENT_PER_KEY: '3', INTAKE_LEASE_SECONDS: String(leaseSeconds) };
    const [a, b] = await Promise.all([start('api', env), start('api', env)]);
    const s = await seed();
    const prefix = s.key.slice(0, 12);
    const path = await makeStereoCall(SHORT);
    const file = await readFile(path);
    const send = (url: string) => postCall(url, { key: s.key, fields: { agent_code: 'AG-07' }, file: { path } });

    // Three uploads in flight: two on one api, one on the other.
    const held = [await heldUpload(a.url, s.key, file), await heldUpload(a.url, s.key, file)];
    held.push(await heldUpload(b.url, s.key, file));
    expect(
      await until(
        () => leases(prefix),
        (n) => n === 3,
      ),
    ).toBe(3);

    // A fourth, on either api, is refused: the cap counts both.
    for (const url of [b.url, a.url]) {
      const refused = await send(url);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(refused.headers.get('retry-after')).toBe('5');
    }

    // One ends: its slot is free for the other api at once.
    expect((await held.shift()!.finish()).status).toBe(201);
    // (given back just after the answer goes out)
    expect(
      await until(
        () => leases(prefix),
        (n) => n === 2,
      ),
    ).toBe(2);
    expect((await send(b.url)).status).toBe(201);
    // That upload's slot too is given back just after its answer: until then a new upload would be the
    // fourth and be refused (CI once saw the next held upload answered 429 here).
    expect(
      await until(
        () => leases(prefix),
        (n) => n === 2,
      ),
    ).toBe(2);

    // Api `a` takes the free slot again and dies with two uploads in flight: no goodbye, no release.
    held.push(await heldUpload(a.url, s.key, file));
    expect(
      await until(
        () => leases(prefix),
        (n) => n === 3,
      ),
    ).toBe(3);
    const killed = Date.now();
    a.child.kill('SIGKILL');
    await a.exited;
    expect((await send(b.url)).status).toBe(429);
    // Until the dead process's leases expire; then the cap counts only live uploads again. Watched in the
    // table, not by sending: every refused request counts against INTAKE_RATE_PER_MINUTE.
    expect(
      await until(
        () => leases(prefix),
        (n) => n === 1,
        30_000,
      ),
    ).toBe(1);
    expect(Date.now() - killed).toBeLessThan((leaseSeconds + 4) * 1000);
    expect((await send(b.url)).status).toBe(201);

    // The upload on the living api was never disturbed.
    expect((await held[1]!.finish()).status).toBe(201);
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(
      await until(
        () => leases(prefix),
        (n) => n === 0,
      ),
    ).toBe(0);
  }, 200_000);
});
