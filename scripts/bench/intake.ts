// `npm run bench:intake [-- --json] [-- --concurrency 8 --small 200 --large 40 --warmup 8 --time-limit 60]`
//
// Throughput, latency and peak memory of POST /v1/calls, next to a bare busboy-to-disk sink as the
// ceiling, for 1 MB and 19 MB WAV recordings. Each (target, size) runs in a fresh child process so
// its peak RSS belongs to that size alone; request bodies are streamed from disk by the client so
// the client's own memory never matters. Everything stays on loopback and is bounded in count and
// time. The service must not grow with upload size: a WARNING is printed when its peak RSS at 19 MB
// exceeds 1.5× its peak at 1 MB.
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../../src/db/client.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createAgent } from '../../src/accounts/agents.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { BENCH_APP_SECRET, benchWorkspace, MiB, note, percentile, round, startChild, table } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '8' },
    small: { type: 'string', default: '200' },
    large: { type: 'string', default: '40' },
    // Unmeasured 1 MB requests per target before measuring; by default one per concurrent slot.
    warmup: { type: 'string' },
    'time-limit': { type: 'string', default: '60' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: npm run bench:intake -- [--json] [--concurrency 8] [--small 200] [--large 40] [--warmup 8] [--time-limit 60]\n' +
      '  --small / --large: requests at 1 MB / 19 MB per target; --warmup: unmeasured 1 MB requests first (default:\n' +
      '  the concurrency; 19 MB always warms up with that many); --time-limit: seconds per (target, size) at most',
  );
  process.exit(0);
}
const CONCURRENCY = positive('concurrency');
const TIME_LIMIT_MS = positive('time-limit') * 1000;
const WARMUP = args.warmup === undefined ? CONCURRENCY : positive('warmup');
const SIZES = [
  { label: '1 MB', bytes: 1 * MiB, requests: positive('small') },
  { label: '19 MB', bytes: 19 * MiB, requests: positive('large') },
];
const AGENT_CODE = 'BENCH-01';
const RSS_GROWTH_LIMIT = 1.5;

function positive(name: 'concurrency' | 'small' | 'large' | 'warmup' | 'time-limit'): number {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number ≥ 1`);
    process.exit(2);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Recordings and the streaming client
// ---------------------------------------------------------------------------------------------

/** Writes a valid 16 kHz mono 16-bit PCM WAV of exactly `totalBytes`: 44-byte header + noise. */
async function writeWav(file: string, totalBytes: number): Promise<void> {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(totalBytes - 8, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(totalBytes - 44, 40);
  // Quiet noise (low bits only), so nothing downstream could treat the data as trivially compressible.
  const noise = randomBytes(256 * 1024);
  for (let i = 1; i < noise.length; i += 2) noise[i] = noise[i]! & 0x01 ? 0xff : 0x00;
  const out = createWriteStream(file);
  out.write(header);
  for (let left = totalBytes - 44; left > 0; left -= noise.length) {
    if (!out.write(left >= noise.length ? noise : noise.subarray(0, left))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
}

interface Recording {
  label: string;
  path: string;
  bytes: number;
}

interface Outcome {
  status: number | null;
  ms: number;
  body: string;
}

/** One multipart POST whose file part is streamed from disk; Content-Length is set up front. */
function postRecording(
  baseUrl: string,
  key: string | null,
  rec: Recording,
  agent: http.Agent,
  n: number,
): Promise<Outcome> {
  const boundary = `----escucha-bench-${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="agent_code"\r\n\r\n${AGENT_CODE}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-${n}.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers: http.OutgoingHttpHeaders = {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': head.length + rec.bytes + tail.length,
  };
  if (key) headers.authorization = `Bearer ${key}`;
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (status: number | null, body: string) => {
      if (done) return;
      done = true;
      resolve({ status, ms: performance.now() - started, body });
    };
    const req = http.request(`${baseUrl}/v1/calls`, { method: 'POST', agent, headers });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish(res.statusCode ?? null, Buffer.concat(chunks).toString('utf8')));
      res.on('error', (e) => finish(res.statusCode ?? null, e.message));
    });
    req.on('error', (e) => finish(null, e.message));
    (async () => {
      req.write(head);
      for await (const chunk of createReadStream(rec.path, { highWaterMark: 256 * 1024 })) {
        if (req.destroyed) return;
        if (!req.write(chunk)) await drained(req);
      }
      req.end(tail);
    })().catch((e: Error) => {
      req.destroy(e);
      finish(null, e.message);
    });
  });
}

/** Resolves on 'drain' or 'close', removing both listeners (once() would leave one behind per chunk). */
function drained(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}

interface Load {
  requests: number;
  failures: { status: number | null; body: string }[];
  wallMs: number;
  latencies: number[];
}

/** `count` requests with `concurrency` in flight, stopping early (counted) after `timeLimitMs`. */
async function load(
  baseUrl: string,
  key: string | null,
  rec: Recording,
  count: number,
  concurrency: number,
  timeLimitMs: number,
): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  const failures: Load['failures'] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count && performance.now() - started < timeLimitMs) {
        const n = next++;
        const r = await postRecording(baseUrl, key, rec, agent, n);
        if (r.status !== null && r.status >= 200 && r.status < 300) latencies.push(r.ms);
        else failures.push({ status: r.status, body: r.body.slice(0, 300) });
      }
    }),
  );
  const wallMs = performance.now() - started;
  agent.destroy();
  return { requests: latencies.length + failures.length, failures, wallMs, latencies: latencies.sort((a, b) => a - b) };
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

type Target = 'service' | 'sink';

interface Result {
  target: Target;
  size: string;
  fileBytes: number;
  requests: number;
  ok: number;
  failed: number;
  concurrency: number;
  seconds: number;
  requestsPerSecond: number;
  mbPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time (user + system) of the target's process per measured request, warm-up excluded. */
  cpuMsPerRequest: number;
  /** Peak RSS right after start-up, before any request. */
  idleRssMB: number;
  /** Peak RSS over the child's whole life, start-up and warm-up included. */
  peakRssMB: number;
  firstFailure?: { status: number | null; body: string };
}

async function measure(
  target: Target,
  rec: Recording,
  requests: number,
  env: Record<string, string>,
  key: string | null,
): Promise<Result> {
  const file = path.join(import.meta.dirname, target === 'service' ? 'intake-server.ts' : 'sink-server.ts');
  note(`  ${target.padEnd(7)} ${rec.label.padStart(5)}: starting a fresh child…`);
  const child = await startChild(file, env);
  try {
    const idle = await child.maxRss();
    // Warm-up (not counted): JIT, connection pools, first-time code paths. The service is a large
    // program: V8 is still compiling its hot functions (Maglev, then Turbofan) for a few hundred
    // requests, about a quarter of its CPU over the first 300 measured ones after the default warm-up
    // of 8, where the sink's few functions are done at once. `--warmup 200` measures both warm at
    // 1 MB. At 19 MB compiling is little next to the I/O, and 200 more kept recordings (3.8 GB) would
    // measure the disk filling up instead: those runs warm up with one request per slot.
    const warmup = rec.bytes === SIZES[0]!.bytes ? WARMUP : CONCURRENCY;
    const warm = await load(child.url, key, rec, warmup, CONCURRENCY, TIME_LIMIT_MS);
    if (warm.failures.length)
      throw new Error(`${target} rejected the warm-up: ${warm.failures[0]!.status} ${warm.failures[0]!.body}`);
    note(`  ${target.padEnd(7)} ${rec.label.padStart(5)}: ${requests} requests, ${CONCURRENCY} at a time…`);
    const cpuBefore = await child.cpuMs();
    const run = await load(child.url, key, rec, requests, CONCURRENCY, TIME_LIMIT_MS);
    const cpuMs = (await child.cpuMs()) - cpuBefore;
    const peak = await child.maxRss();
    const seconds = run.wallMs / 1000;
    const ok = run.latencies.length;
    return {
      target,
      size: rec.label,
      fileBytes: rec.bytes,
      requests: run.requests,
      ok,
      failed: run.failures.length,
      concurrency: CONCURRENCY,
      seconds: round(seconds, 2),
      requestsPerSecond: round(ok / seconds, 1),
      mbPerSecond: round((ok * rec.bytes) / MiB / seconds, 1),
      p50Ms: round(percentile(run.latencies, 50), 1),
      p99Ms: round(percentile(run.latencies, 99), 1),
      cpuMsPerRequest: round(cpuMs / Math.max(1, run.requests), 2),
      idleRssMB: round(idle / MiB, 1),
      peakRssMB: round(peak / MiB, 1),
      ...(run.failures.length ? { firstFailure: run.failures[0] } : {}),
    };
  } finally {
    await child.stop();
  }
}

async function main() {
  const { work, createBenchDb, cleanup } = benchWorkspace('escucha-bench-');
  try {
    note('preparing recordings and a throwaway database…');
    const recordings: Recording[] = [];
    for (const s of SIZES) {
      const p = path.join(work, `recording-${s.bytes}.wav`);
      await writeWav(p, s.bytes);
      recordings.push({ label: s.label, path: p, bytes: s.bytes });
    }
    const db = await createBenchDb();
    const prisma = createDb(db.url, { max: 2 });
    const { account } = await createAccount(prisma, {
      name: 'Bench',
      minutes: 2_000_000_000,
      seats: 10,
      timeZone: 'UTC',
    });
    await createAgent(prisma, account.id, { name: 'Bench Agent', code: AGENT_CODE });
    const { key } = await createApiKey(prisma, account.id);
    await prisma.$disconnect();

    const results: Result[] = [];
    for (const [i, rec] of recordings.entries()) {
      for (const target of ['service', 'sink'] as const) {
        const dataDir = path.join(work, `${target}-${i}`);
        const env: Record<string, string> =
          target === 'service'
            ? {
                NODE_ENV: 'production',
                DATABASE_URL: db.url,
                DATA_DIR: dataDir,
                APP_SECRET: BENCH_APP_SECRET,
                PUBLIC_URL: 'http://127.0.0.1',
                INTAKE_RATE_PER_MINUTE: '1000000',
              }
            : { SINK_DIR: work };
        results.push(await measure(target, rec, SIZES[i]!.requests, env, target === 'service' ? key : null));
      }
    }
    report(results, db.server);
    if (results.some((r) => r.failed)) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

function report(results: Result[], server: string) {
  const find = (target: Target, size: string) => results.find((r) => r.target === target && r.size === size)!;
  const ratios = SIZES.map((s) => {
    const svc = find('service', s.label);
    const sink = find('sink', s.label);
    return {
      size: s.label,
      serviceOverSinkThroughput: round(svc.mbPerSecond / sink.mbPerSecond, 2),
      serviceOverSinkP50: round(svc.p50Ms / sink.p50Ms, 2),
      serviceOverSinkCpu: round(svc.cpuMsPerRequest / sink.cpuMsPerRequest, 2),
    };
  });
  const [small, large] = SIZES.map((s) => s.label) as [string, string];
  const growth = (target: Target) => round(find(target, large).peakRssMB / find(target, small).peakRssMB, 2);
  const rss = { service: growth('service'), sink: growth('sink') };
  const warning =
    rss.service > RSS_GROWTH_LIMIT
      ? `WARNING: the service's peak RSS at ${large} (${find('service', large).peakRssMB} MB) exceeds ${RSS_GROWTH_LIMIT}× its peak at ${small} (${find('service', small).peakRssMB} MB): memory grows with upload size.`
      : null;
  const failures = results
    .filter((r) => r.failed)
    .map(
      (r) =>
        `${r.target} ${r.size}: ${r.failed} of ${r.requests} failed; first: ${r.firstFailure?.status ?? 'no response'} ${r.firstFailure?.body ?? ''}`,
    );

  if (args.json) {
    console.log(
      JSON.stringify(
        {
          benchmark: 'intake',
          node: process.version,
          platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs`,
          postgres: server,
          concurrency: CONCURRENCY,
          warmup: { small: WARMUP, large: CONCURRENCY },
          results,
          ratios,
          rssGrowth19vs1: rss,
          warning,
          failures,
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    `\nPOST /v1/calls vs a bare busboy-to-disk sink — node ${process.version}, ${os.cpus().length} CPUs, ${server} PostgreSQL, loopback, warm-up ${WARMUP} requests at 1 MB and ${CONCURRENCY} at 19 MB\n`,
  );
  console.log(
    table(
      [
        'target',
        'size',
        'requests',
        'concurrency',
        'req/s',
        'MB/s',
        'p50 ms',
        'p99 ms',
        'CPU ms/req',
        'idle RSS MB',
        'peak RSS MB',
      ],
      results.map((r) => [
        r.target,
        r.size,
        r.failed ? `${r.ok}/${r.requests}` : r.requests,
        r.concurrency,
        r.requestsPerSecond,
        r.mbPerSecond,
        r.p50Ms,
        r.p99Ms,
        r.cpuMsPerRequest,
        r.idleRssMB,
        r.peakRssMB,
      ]),
    ),
  );
  console.log('');
  for (const r of ratios)
    console.log(
      `service/sink throughput at ${r.size.padStart(5)}: ${r.serviceOverSinkThroughput.toFixed(2)}  (p50 latency ×${r.serviceOverSinkP50.toFixed(2)}, CPU per request ×${r.serviceOverSinkCpu.toFixed(2)})`,
    );
  console.log(
    `peak RSS ${large} vs ${small}: service ×${rss.service.toFixed(2)}, sink ×${rss.sink.toFixed(2)}  (≈1 means memory does not grow with upload size)`,
  );
  console.log(
    'MB = 1,048,576 bytes; throughput counts the recording bytes of successful requests; CPU ms/req = user + system time of the\n' +
      "target's process over the measured requests (a figure other load on the machine barely moves); idle RSS = peak right after start-up.",
  );
  if (warning) console.log(`\n${warning}`);
  if (failures.length) console.log(`\nFAILED REQUESTS:\n  ${failures.join('\n  ')}`);
}

await main();
