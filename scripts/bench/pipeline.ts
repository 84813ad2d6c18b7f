// `npm run bench:pipeline [-- --json] [-- --calls 10 --sequential 4 --concurrency 2 --time-limit 900]`
//
// How fast a posted call becomes a webhook.
//   1. Transcription speed, in process: the local Moonshine engine on a ~60 s two-speaker English call
//      (espeak-ng speech, agent left / customer right), timed with transcribeFile after one warm-up run;
//      model load time is measured separately. Reported as the real-time factor RTF = wall / audio, once
//      with the language detected (what intake does for a call sent without a language) and once with
//      the language given; then with ASR_BATCH=0 (each chunk decoded alone, a recognition thread per
//      core: the baseline): CPU seconds per audio second and whether the words are the same.
//   2. Intake-201-to-webhook-received latency through the real service (api + worker in one child
//      process, WORKER_CONCURRENCY printed) with a signed-webhook receiver on loopback: short (~8–15 s)
//      two-speaker calls posted over HTTP, first one at a time (the first call is cold: the worker loads
//      its models) and then all at once (burst): p50, p95, max and throughput; then the same calls
//      through a service with ASR_BATCH=0: the worker's peak RSS (transcription and analysis, phrase
//      scoring included) and throughput of the default against the baseline.
// Everything stays on loopback (no LLM, no remote transcription), is bounded in count and time, and runs
// on a throwaway database and temp folder (fixture audio included) that are removed at the end. Exits
// non-zero when a call is rejected, fails, or its webhook never arrives.
import { openAsBlob, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import type { AppContext } from '../../src/context.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/client.ts';
import { createAccount } from '../../src/accounts/accounts.ts';
import { createAgent } from '../../src/accounts/agents.ts';
import { createApiKey } from '../../src/accounts/api-keys.ts';
import { createTemplate, setDefaultTemplate } from '../../src/accounts/templates.ts';
import { createLogger } from '../../src/log.ts';
import { createStorage } from '../../src/storage/index.ts';
import { closeEngines, createEngines, transcribeFile } from '../../src/transcription/index.ts';
import { moonshineLanguages } from '../../src/transcription/moonshine.ts';
import { DEFAULT_BATCH } from '../../src/transcription/beam.ts';
import { defaultRecognitionThreads } from '../../src/transcription/moonshine-threads.ts';
import { setWebhookEndpoint } from '../../src/webhooks/endpoints.ts';
import type { Turn } from '../../test/fixtures/audio.ts';
import { missingAllocatorEnv } from '../../src/service/allocator.ts';
import {
  BENCH_APP_SECRET,
  MiB,
  benchWorkspace,
  note,
  percentile,
  round,
  startChild,
  table,
  type BenchDb,
  type MeasuredChild,
} from './lib.ts';

// Not strict: `npm run bench -- …` (all.ts) passes the same arguments to every benchmark, so another
// benchmark's options are ignored here, with a note.
const KNOWN = ['json', 'calls', 'sequential', 'concurrency', 'time-limit', 'help'];
const { values: args } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: {
    json: { type: 'boolean', default: false },
    calls: { type: 'string', default: '10' },
    sequential: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '2' },
    'time-limit': { type: 'string', default: '900' },
    help: { type: 'boolean', default: false },
  },
});
for (const k of Object.keys(args)) if (!KNOWN.includes(k)) process.stderr.write(`bench:pipeline: ignoring --${k}\n`);
if (args.help) {
  console.log(
    'usage: npm run bench:pipeline -- [--json] [--calls 10] [--sequential 4] [--concurrency 2] [--time-limit 900]\n' +
      '  --calls: calls posted at once (burst); --sequential: calls posted one at a time before it (the first is cold);\n' +
      '  --concurrency: WORKER_CONCURRENCY of the service; --time-limit: seconds for the whole run at most',
  );
  process.exit(0);
}
const CALLS = whole('calls', 1);
const SEQUENTIAL = whole('sequential', 1);
const CONCURRENCY = whole('concurrency', 1);
const TIME_LIMIT_MS = whole('time-limit', 30) * 1000;
const AGENT_CODE = 'BENCH-01';
const LONG_CALL_SECONDS = 60;
const SHORT_CALL = { min: 8, max: 15 };
const GAP_SECONDS = 0.8;

function whole(name: 'calls' | 'sequential' | 'concurrency' | 'time-limit', min: number): number {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number ≥ ${min}`);
    process.exit(2);
  }
  return n;
}

const started = performance.now();
// Other work on the machine skews every figure here; the load average is printed beside them.
const loadAtStart = os.loadavg().map((x) => round(x, 2));
const deadline = started + TIME_LIMIT_MS;
const left = () => Math.max(0, deadline - performance.now());
const seconds = (ms: number) => round(ms / 1000, 2);

// ---------------------------------------------------------------------------------------------
// Speech
// ---------------------------------------------------------------------------------------------

const AGENT_LINES = [
  'Hello, thank you for calling Acme support. My name is Anna. How can I help you today?',
  'I am sorry to hear that. Let me look at your account right now.',
  'I can see two charges for the same invoice this month. That is our mistake.',
  'I will refund the extra charge today. It should reach your card within five days.',
  'Is there anything else I can help you with today?',
  'Your new router is on its way and should arrive on Thursday morning.',
  'Could you please confirm the email address on the account?',
  'Thank you for your patience. Have a wonderful day. Goodbye.',
];
const CUSTOMER_LINES = [
  'Hi. I have a problem with my invoice. I was charged twice this month.',
  'Sure, my account number is four five six seven.',
  'Great, thank you very much. That is all I needed.',
  'My internet connection keeps dropping every evening after seven.',
  'Yes, it is john dot smith at example dot com.',
  'Could you also send me a copy of the corrected invoice by email?',
  'No, that is everything. Thanks for your help.',
  'Okay. How long will the refund take to arrive?',
];
const line = (speaker: Turn['speaker'], i: number): Turn => ({
  speaker,
  voice: 'en',
  text: (speaker === 'agent' ? AGENT_LINES : CUSTOMER_LINES)[
    i % (speaker === 'agent' ? AGENT_LINES.length : CUSTOMER_LINES.length)
  ]!,
});

function wavSeconds(file: string): number {
  const header = readFileSync(file).subarray(0, 44);
  return header.readUInt32LE(40) / header.readUInt32LE(28);
}

interface Recording {
  path: string;
  seconds: number;
  bytes: number;
}

type Fixtures = typeof import('../../test/fixtures/audio.ts');

/** Alternating agent/customer turns until the call (gaps included) lasts at least `minSeconds`. */
async function buildCall(
  fx: Fixtures,
  out: string,
  minSeconds: number,
  first: number,
  maxSeconds = Infinity,
): Promise<Recording> {
  const turns: Turn[] = [];
  let length = GAP_SECONDS;
  for (let i = 0; length < minSeconds; i++) {
    const turn = line(i % 2 === 0 ? 'agent' : 'customer', first + Math.floor(i / 2) * 3 + (i % 2));
    const [span] = await fx.turnSpans([turn], { gapSeconds: GAP_SECONDS });
    turns.push(turn);
    length += span!.end - span!.start + GAP_SECONDS;
    if (turns.length > 200) throw new Error('could not build a long enough call');
  }
  const file = await fx.makeStereoCall(turns, out, { gapSeconds: GAP_SECONDS });
  const rec = { path: file, seconds: wavSeconds(file), bytes: statSync(file).size };
  if (rec.seconds > maxSeconds)
    note(`  note: ${path.basename(out)} lasts ${rec.seconds.toFixed(1)} s (over ${maxSeconds} s)`);
  return rec;
}

// ---------------------------------------------------------------------------------------------
// 1. Transcription real-time factor, in process
// ---------------------------------------------------------------------------------------------

interface RtfRun {
  language: string;
  detectedLanguage: string;
  wallSeconds: number;
  rtf: number;
  timesFasterThanRealTime: number;
  segments: number;
  agentSegments: number;
  customerSegments: number;
}

/**
 * The same call with ASR_BATCH=0 (the baseline of issue 30's batching): each chunk decoded alone, a
 * recognition thread per core with its own copy of the models; the same beam and languages.
 */
interface RtfBaseline {
  wallSeconds: number;
  rtf: number;
  /** CPU seconds of the process (every thread) per audio second: steadier than RTF on a shared machine. */
  cpuPerAudio: number;
  /** The current decoder heard exactly these words. */
  sameWords: boolean;
}

// Issue 12's goal for this call, with the same words as one thread hears.
const RTF_GOAL = 0.03;

interface RtfResult {
  engine: string;
  baseline: RtfBaseline;
  /** The current decoder's CPU per audio second, language given (as the baseline's). */
  cpuPerAudio: number;
  /**
   * What the process's RSS grew by when the models of every language loaded on every thread (measured
   * first, in a fresh process; the baseline's is in bench:asr, each decoder in a process of its own).
   */
  modelsMB: number;
  languages: string[];
  threads: string;
  audioSeconds: number;
  speechSeconds: number;
  modelLoadSeconds: number;
  warmupSeconds: number;
  runs: RtfRun[];
}

async function measureRtf(rec: Recording, modelsDir: string): Promise<RtfResult> {
  const languages = moonshineLanguages(modelsDir);
  if (!languages.includes('en'))
    throw new Error(`no English Moonshine model in ${modelsDir} (run \`npm run models:fetch\`)`);
  const rssMB = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().rss / MiB;
  };
  const rssBefore = rssMB();
  const engines = createEngines({ engine: 'moonshine', modelsDir });
  const [engine] = engines;
  const threads = engine!.parallelism ?? 1;

  // Model load: the first chunk per language loads its encoder and decoder on every thread (0.5 s of silence costs ~nothing else).
  const silence = new Float32Array(8000);
  let t = performance.now();
  for (const lang of languages)
    await Promise.all(Array.from({ length: threads }, () => engine!.transcribeChunk(silence, lang)));
  const modelLoadSeconds = seconds(performance.now() - t);
  const modelsMB = rssMB() - rssBefore;
  note(`  models loaded (${languages.join(', ')}) in ${modelLoadSeconds} s; warm-up run…`);

  t = performance.now();
  await transcribeFile(rec.path, { engines, language: null });
  const warmupSeconds = seconds(performance.now() - t);

  const runs: RtfRun[] = [];
  let speechSeconds = 0;
  const text = (r: { segments: { text: string }[] }) => r.segments.map((x) => x.text).join(' | ');
  let heardInEnglish = '';
  let cpuPerAudio = 0;
  for (const language of [null, 'en'] as const) {
    if (left() < 10_000) throw new Error('time limit reached during the transcription benchmark');
    note(`  timed run, language ${language ?? 'detected'}…`);
    t = performance.now();
    const cpu = process.cpuUsage();
    const result = await transcribeFile(rec.path, { engines, language });
    const wall = (performance.now() - t) / 1000;
    if (language === 'en') {
      heardInEnglish = text(result);
      cpuPerAudio = cpuSecondsSince(cpu) / result.durationSeconds;
    }
    speechSeconds = result.segments.reduce((s, x) => s + x.end - x.start, 0);
    runs.push({
      language: language ?? 'detected',
      detectedLanguage: result.language,
      wallSeconds: round(wall, 2),
      rtf: round(wall / result.durationSeconds, 3),
      timesFasterThanRealTime: round(result.durationSeconds / wall, 1),
      segments: result.segments.length,
      agentSegments: result.segments.filter((s) => s.speaker === 'agent').length,
      customerSegments: result.segments.filter((s) => s.speaker === 'customer').length,
    });
  }
  await closeEngines(engines);

  // Baseline, same run: ASR_BATCH=0 (unbatched threads), both languages loaded, language given.
  note('  baseline run: ASR_BATCH=0…');
  const baselineEngines = createEngines({ engine: 'moonshine', modelsDir, batch: 0 });
  const unbatched = baselineEngines[0]!;
  for (const lang of languages)
    await Promise.all(
      Array.from({ length: unbatched.parallelism ?? 1 }, () => unbatched.transcribeChunk(silence, lang)),
    );
  await transcribeFile(rec.path, { engines: baselineEngines, language: 'en' });
  t = performance.now();
  const cpu = process.cpuUsage();
  const alone = await transcribeFile(rec.path, { engines: baselineEngines, language: 'en' });
  const baselineWall = (performance.now() - t) / 1000;
  const baselineCpu = cpuSecondsSince(cpu);
  await closeEngines(baselineEngines);
  return {
    engine: 'moonshine (local, int8 ONNX)',
    baseline: {
      wallSeconds: round(baselineWall, 2),
      rtf: round(baselineWall / alone.durationSeconds, 3),
      cpuPerAudio: round(baselineCpu / alone.durationSeconds, 3),
      sameWords: heardInEnglish === text(alone),
    },
    cpuPerAudio: round(cpuPerAudio, 3),
    modelsMB: round(modelsMB, 0),
    languages,
    threads: `default ASR_BATCH=${DEFAULT_BATCH} (chunks decoded together on one recognition thread, ${os.availableParallelism()} ONNX threads); baseline ASR_BATCH=0 (${defaultRecognitionThreads()} recognition threads, one ONNX thread each)`,
    audioSeconds: round(rec.seconds, 1),
    speechSeconds: round(speechSeconds, 1),
    modelLoadSeconds,
    warmupSeconds,
    runs,
  };
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

// ---------------------------------------------------------------------------------------------
// 2. Intake → webhook through the real service
// ---------------------------------------------------------------------------------------------

interface Arrival {
  at: number;
  epochMs: number;
  type: string;
  verified: boolean;
}

/** Loopback webhook receiver that timestamps each delivery on arrival and keeps the first per call id. */
async function startReceiver(secret: () => string | null) {
  const arrivals = new Map<string, Arrival>();
  const waiters = new Map<string, (() => void)[]>();
  let deliveries = 0;
  let unexpected = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const epochMs = Date.now();
      deliveries++;
      const body = Buffer.concat(chunks).toString('utf8');
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      let event: { type?: string; data?: { id?: string } };
      let verified = false;
      try {
        const s = secret();
        if (s) {
          event = new Webhook(s).verify(body, req.headers as Record<string, string>) as typeof event;
          verified = true;
        } else event = JSON.parse(body);
      } catch {
        try {
          event = JSON.parse(body);
        } catch {
          unexpected++;
          return;
        }
      }
      const id = event.data?.id;
      if (!id) return void unexpected++;
      if (!arrivals.has(id)) arrivals.set(id, { at, epochMs, type: event.type ?? '?', verified });
      for (const w of waiters.get(id) ?? []) w();
      waiters.delete(id);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    stats: () => ({ deliveries, unexpected }),
    /** Resolves when the call's webhook arrived (or already had). */
    arrived(id: string): Promise<void> {
      if (arrivals.has(id)) return Promise.resolve();
      return new Promise((resolve) => waiters.set(id, [...(waiters.get(id) ?? []), resolve]));
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface Posted {
  n: number;
  phase: 'sequential' | 'burst';
  externalId: string;
  audioSeconds: number;
  postedAt: number;
  acceptedAt: number | null;
  status: number | null;
  callId: string | null;
  error: string | null;
}

async function post(baseUrl: string, key: string, rec: Recording, n: number, phase: Posted['phase']): Promise<Posted> {
  const externalId = `bench-${phase}-${n}`;
  const form = new FormData();
  form.append('agent_code', AGENT_CODE);
  form.append('external_id', externalId);
  form.append('file', await openAsBlob(rec.path, { type: 'audio/wav' }), `${externalId}.wav`);
  const out: Posted = {
    n,
    phase,
    externalId,
    audioSeconds: round(rec.seconds, 1),
    postedAt: performance.now(),
    acceptedAt: null,
    status: null,
    callId: null,
    error: null,
  };
  try {
    const res = await fetch(`${baseUrl}/v1/calls`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(Math.floor(Math.max(1000, Math.min(60_000, left())))),
    });
    const accepted = performance.now();
    const text = await res.text();
    out.status = res.status;
    if (res.status === 201) {
      out.acceptedAt = accepted;
      out.callId = (JSON.parse(text) as { id: string }).id;
    } else out.error = `HTTP ${res.status}: ${text.slice(0, 300)}`;
  } catch (e) {
    out.error = (e as Error).message;
  }
  return out;
}

interface CallOutcome extends Posted {
  /** 201 received → webhook received, ms. */
  latencyMs: number | null;
  finalStatus: string | null;
  stages: { queuedMs: number; transcribingMs: number; analyzingMs: number; deliveryMs: number } | null;
}

/**
 * Waits until each accepted call's webhook arrived, the call failed in the service, or the time
 * limit; call statuses are polled so a failed call is reported at once rather than waited for.
 */
async function settle(posted: Posted[], receiver: Receiver, sql: pg.Pool): Promise<CallOutcome[]> {
  const pending = new Set(posted.filter((p) => p.callId).map((p) => p.callId!));
  const failed = new Map<string, string>();
  while (pending.size && left() > 0) {
    for (const id of pending) if (receiver.arrivals.has(id)) pending.delete(id);
    if (!pending.size) break;
    const { rows } = await sql.query<{
      id: string;
      status: string;
      failure_reason: string | null;
      failure_detail: string | null;
    }>('SELECT id, status::text, failure_reason::text, failure_detail FROM calls WHERE id = ANY($1::uuid[])', [
      [...pending],
    ]);
    for (const r of rows) {
      if (r.status === 'failed' || r.status === 'transcribed') {
        failed.set(
          r.id,
          r.status === 'failed'
            ? `call failed: ${r.failure_reason} ${r.failure_detail ?? ''}`.trim()
            : 'call ended transcribed (no template applied), so no call.analyzed',
        );
        pending.delete(r.id);
      }
    }
    await Promise.race([
      new Promise((r) => setTimeout(r, Math.floor(Math.min(1000, left())))),
      ...[...pending].map((id) => receiver.arrived(id)),
    ]);
  }
  const ids = posted.filter((p) => p.callId).map((p) => p.callId!);
  const { rows: events } = await sql.query<{ call_id: string; status: string; at: Date }>(
    'SELECT call_id, status::text, at FROM call_events WHERE call_id = ANY($1::uuid[]) ORDER BY at, id',
    [ids],
  );
  const { rows: statuses } = await sql.query<{ id: string; status: string }>(
    'SELECT id, status::text FROM calls WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return posted.map((p) => {
    const arrival = p.callId ? receiver.arrivals.get(p.callId) : undefined;
    const finalStatus = statuses.find((s) => s.id === p.callId)?.status ?? null;
    let error = p.error;
    if (!error && p.callId && !arrival)
      error = failed.get(p.callId) ?? `webhook never arrived within the time limit (call is ${finalStatus})`;
    if (!error && arrival && arrival.type !== 'call.analyzed') error = `unexpected webhook type ${arrival.type}`;
    if (!error && arrival && !arrival.verified) error = 'webhook signature did not verify';
    const at = (s: string) => events.find((e) => e.call_id === p.callId && e.status === s)?.at.getTime();
    const [q, tr, an, done] = [at('queued'), at('transcribing'), at('analyzing'), at('analyzed')];
    return {
      ...p,
      error,
      finalStatus,
      latencyMs: arrival && p.acceptedAt !== null ? arrival.at - p.acceptedAt : null,
      stages:
        arrival && q && tr && an && done
          ? { queuedMs: tr - q, transcribingMs: an - tr, analyzingMs: done - an, deliveryMs: arrival.epochMs - done }
          : null,
    };
  });
}

interface LatencySummary {
  calls: number;
  ok: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  meanAudioSeconds: number;
  /** p50 of each stage from call_events (DB clock) and the receiver's clock. */
  stagesP50Ms: { queued: number; transcribing: number; analyzing: number; delivery: number } | null;
}

function summarize(outcomes: CallOutcome[]): LatencySummary {
  const ok = outcomes.filter((o) => !o.error && o.latencyMs !== null);
  const lat = ok.map((o) => o.latencyMs!).sort((a, b) => a - b);
  const staged = ok.filter((o) => o.stages);
  const p50 = (xs: number[]) =>
    round(
      percentile(
        xs.sort((a, b) => a - b),
        50,
      ),
      0,
    );
  return {
    calls: outcomes.length,
    ok: ok.length,
    p50Ms: round(percentile(lat, 50), 0),
    p95Ms: round(percentile(lat, 95), 0),
    maxMs: round(lat.at(-1) ?? Number.NaN, 0),
    meanAudioSeconds: round(outcomes.reduce((s, o) => s + o.audioSeconds, 0) / Math.max(1, outcomes.length), 1),
    stagesP50Ms: staged.length
      ? {
          queued: p50(staged.map((o) => o.stages!.queuedMs)),
          transcribing: p50(staged.map((o) => o.stages!.transcribingMs)),
          analyzing: p50(staged.map((o) => o.stages!.analyzingMs)),
          delivery: p50(staged.map((o) => o.stages!.deliveryMs)),
        }
      : null,
  };
}

const TEMPLATE = {
  version: 1,
  criteria: [
    {
      key: 'greeting',
      label: 'Greets and thanks',
      kind: 'phrase',
      phrases: ['thank you for calling'],
      speaker: 'agent',
      weight: 3,
      window: { from: 'start', seconds: 30 },
    },
    { key: 'apology', label: 'Apologises', kind: 'phrase', phrases: ['sorry'], speaker: 'agent', weight: 2 },
    {
      key: 'no_insults',
      label: 'No insults',
      kind: 'forbidden',
      phrases: ['stupid', 'idiot'],
      speaker: 'agent',
      weight: 2,
    },
  ],
  topics: [
    { key: 'billing', label: 'Billing', phrases: ['invoice', 'charged', 'refund'] },
    { key: 'technical', label: 'Technical', phrases: ['router', 'internet'] },
  ],
};

interface ServiceResult {
  workerConcurrency: number;
  sequential: { cold: CallOutcome | null; warm: LatencySummary };
  burst: LatencySummary & { wallSeconds: number; callsPerMinute: number; audioMinutesPerMinute: number };
  peakRssMB: number;
  webhookDeliveries: number;
  outcomes: CallOutcome[];
}

/** Issue 30: one worker's peak RSS with both languages loaded. */
const RSS_GOAL_MB = 700;

/** The service's calls; `batch` sets ASR_BATCH (unset: the default). */
async function measureService(db: BenchDb, work: string, short: Recording[], batch?: number): Promise<ServiceResult> {
  // One secret for both services on this database (src/crypto/key-check.ts refuses another).
  const appSecret = BENCH_APP_SECRET;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    DATA_DIR: path.join(work, 'service'),
    APP_SECRET: appSecret,
    PUBLIC_URL: 'http://127.0.0.1',
    INTAKE_RATE_PER_MINUTE: '1000000',
    WORKER_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    TRANSCRIPTION_ENGINE: 'moonshine',
    ...(batch !== undefined ? { ASR_BATCH: String(batch) } : {}),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    // The C allocator's settings `npm start` gives the service (src/service/allocator.ts: a forked child
    // does not start itself again, so they are set here).
    ...missingAllocatorEnv(process.env),
  };
  // Loopback only: no remote transcription or LLM even if the caller's environment configures them
  // (the child inherits this process's environment).
  for (const k of [
    'LLM_URL',
    'LLM_KEY',
    'OPENAI_TRANSCRIBE_URL',
    'OPENAI_TRANSCRIBE_KEY',
    'STORAGE_DIR',
    'PORT',
    'HOST',
  ])
    delete process.env[k];

  // Seed: account, agent, API key, default template and the webhook endpoint (as the end-to-end test does).
  const config = loadConfig({ ...process.env, ...env });
  const prisma = createDb(db.url, { max: 2 });
  const app: AppContext = { config, db: prisma, log: createLogger('silent'), storage: createStorage(config) };
  let secret: string | null = null;
  const receiver = await startReceiver(() => secret);
  const sql = new pg.Pool({ connectionString: db.url, max: 2 });
  let child: MeasuredChild | null = null;
  try {
    const { account } = await createAccount(prisma, {
      name: 'Bench',
      minutes: 2_000_000_000,
      seats: 10,
      timeZone: 'UTC',
    });
    await createAgent(prisma, account.id, { name: 'Bench Agent', code: AGENT_CODE });
    const { key } = await createApiKey(prisma, account.id);
    const template = await createTemplate(prisma, account.id, { name: 'Bench support', definition: TEMPLATE });
    await setDefaultTemplate(prisma, account.id, template.id);
    secret = (await setWebhookEndpoint(app, account.id, receiver.url)).secret;

    if (left() < 20_000) throw new Error('time limit reached before the service could be measured');
    note(
      `  starting the service (api + worker, WORKER_CONCURRENCY=${CONCURRENCY}${batch !== undefined ? `, ASR_BATCH=${batch}` : ''})…`,
    );
    child = await startChild(path.join(import.meta.dirname, 'pipeline-server.ts'), env, Math.min(120_000, left()));

    const outcomes: CallOutcome[] = [];
    // One at a time: each call is posted once the previous one's webhook arrived. The first is cold.
    for (let i = 0; i < SEQUENTIAL && left() > 0; i++) {
      note(`  sequential call ${i + 1}/${SEQUENTIAL}${i === 0 ? ' (cold)' : ''}…`);
      const p = await post(child.url, key, short[i % short.length]!, i + 1, 'sequential');
      const [o] = await settle([p], receiver, sql);
      outcomes.push(o!);
      if (o!.error) note(`    FAILED: ${o!.error}`);
      else note(`    ${seconds(o!.latencyMs!)} s`);
    }

    // Burst: every call posted at once.
    let burst: CallOutcome[] = [];
    let burstWallMs = Number.NaN;
    if (left() > 0) {
      note(`  burst: ${CALLS} calls posted at once…`);
      const t0 = performance.now();
      const posted = await Promise.all(
        Array.from({ length: CALLS }, (_, i) => post(child!.url, key, short[i % short.length]!, i + 1, 'burst')),
      );
      const rejected = posted.filter((p) => p.error);
      if (rejected.length) note(`    ${rejected.length} rejected; first: ${rejected[0]!.error}`);
      burst = await settle(posted, receiver, sql);
      const arrivals = burst.filter((o) => o.latencyMs !== null).map((o) => o.acceptedAt! + o.latencyMs!);
      burstWallMs = arrivals.length ? Math.max(...arrivals) - t0 : Number.NaN;
      outcomes.push(...burst);
    } else {
      note('  time limit reached before the burst');
    }

    const peak = await child.maxRss();
    const seq = outcomes.filter((o) => o.phase === 'sequential');
    const okBurst = burst.filter((o) => !o.error).length;
    const burstSummary = summarize(burst);
    return {
      workerConcurrency: CONCURRENCY,
      sequential: { cold: seq[0] ?? null, warm: summarize(seq.slice(1)) },
      burst: {
        ...burstSummary,
        calls: CALLS,
        wallSeconds: seconds(burstWallMs),
        callsPerMinute: round((okBurst / burstWallMs) * 60_000, 1),
        audioMinutesPerMinute: round(
          burst.filter((o) => !o.error).reduce((s, o) => s + o.audioSeconds, 0) / 60 / (burstWallMs / 60_000),
          1,
        ),
      },
      peakRssMB: round(peak / MiB, 0),
      webhookDeliveries: receiver.stats().deliveries,
      outcomes,
    };
  } finally {
    await child?.stop().catch(() => {});
    await receiver.close();
    await sql.end().catch(() => {});
    await prisma.$disconnect().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

async function main() {
  const { work, createBenchDb, cleanup } = benchWorkspace('escucha-benchpipe-');
  // Hard stop: a phase that cannot be interrupted (a native inference run) must not outlive the limit by much.
  const watchdog = setTimeout(() => {
    note(`time limit (${TIME_LIMIT_MS / 1000} s) exceeded by 60 s; giving up`);
    void cleanup().finally(() => process.exit(1));
  }, TIME_LIMIT_MS + 60_000);
  watchdog.unref();

  try {
    // The fixtures' cache lives under os.tmpdir(): point it into our temp folder so it goes with it.
    process.env.TMPDIR = work;
    const fx: Fixtures = await import('../../test/fixtures/audio.ts');
    note('generating speech (espeak-ng)…');
    const long = await buildCall(fx, path.join(work, 'call-60s.wav'), LONG_CALL_SECONDS, 0);
    const short: Recording[] = [];
    for (let i = 0; i < Math.min(CALLS, 8); i++)
      short.push(await buildCall(fx, path.join(work, `call-short-${i}.wav`), SHORT_CALL.min, i, SHORT_CALL.max));

    const modelsDir = loadConfig({ ...process.env, APP_SECRET: 'x'.repeat(32), DATA_DIR: work }).modelsDir;
    note(`transcription: ${long.seconds.toFixed(1)} s call, models in ${modelsDir}`);
    const rtf = await measureRtf(long, modelsDir);

    note('intake → webhook: preparing a throwaway database…');
    const db = await createBenchDb();
    const service = await measureService(db, work, short);
    note('the same calls through a service with ASR_BATCH=0 (the baseline)…');
    const baseline = await measureService(db, work, short, 0);
    report(rtf, service, baseline, db.server, short);
    const failures = [...service.outcomes, ...baseline.outcomes].filter((o) => o.error);
    if (failures.length || service.outcomes.length < SEQUENTIAL + CALLS) process.exitCode = 1;
  } catch (e) {
    console.error(`bench:pipeline failed: ${(e as Error).stack ?? e}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}

function compact({ n, phase, callId, audioSeconds, status, latencyMs, finalStatus, stages, error }: CallOutcome) {
  return {
    n,
    phase,
    callId,
    audioSeconds,
    status,
    latencyMs: latencyMs === null ? null : round(latencyMs, 0),
    finalStatus,
    stages,
    error,
  };
}

function report(rtf: RtfResult, svc: ServiceResult, base: ServiceResult, server: string, short: Recording[]) {
  const failures = [
    ...svc.outcomes.filter((o) => o.error).map((o) => `${o.phase} #${o.n} (${o.callId ?? 'not accepted'}): ${o.error}`),
    ...base.outcomes
      .filter((o) => o.error)
      .map((o) => `ASR_BATCH=0: ${o.phase} #${o.n} (${o.callId ?? 'not accepted'}): ${o.error}`),
  ];
  const missing = SEQUENTIAL + CALLS - svc.outcomes.length;
  if (missing > 0) failures.push(`${missing} call(s) never posted: time limit reached`);
  const shortRange = `${Math.min(...short.map((s) => s.seconds)).toFixed(1)}–${Math.max(...short.map((s) => s.seconds)).toFixed(1)} s`;

  if (args.json) {
    console.log(
      JSON.stringify(
        {
          benchmark: 'pipeline',
          node: process.version,
          platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs`,
          postgres: server,
          loadAverage: { start: loadAtStart, end: os.loadavg().map((x) => round(x, 2)) },
          transcription: rtf,
          service: {
            workerConcurrency: svc.workerConcurrency,
            shortCallSeconds: shortRange,
            sequential: { cold: svc.sequential.cold && compact(svc.sequential.cold), warm: svc.sequential.warm },
            burst: svc.burst,
            peakRssMB: svc.peakRssMB,
            webhookDeliveries: svc.webhookDeliveries,
            calls: svc.outcomes.map(compact),
          },
          baselineService: {
            asrBatch: 0,
            sequential: { cold: base.sequential.cold && compact(base.sequential.cold), warm: base.sequential.warm },
            burst: base.burst,
            peakRssMB: base.peakRssMB,
            calls: base.outcomes.map(compact),
          },
          rssGoalMB: RSS_GOAL_MB,
          failures,
        },
        null,
        2,
      ),
    );
    return;
  }

  const s = (ms: number | null | undefined) =>
    ms === null || ms === undefined || !Number.isFinite(ms) ? '—' : (ms / 1000).toFixed(2);
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(
    `\nCall pipeline — node ${process.version}, ${os.cpus().length} CPUs, ${server} PostgreSQL, loopback; load average ${load(loadAtStart)} at start, ${load(os.loadavg())} at end\n`,
  );
  console.log(
    `1. Transcription, in process: ${rtf.engine}, models ${rtf.languages.join('+')}, threads: ${rtf.threads}`,
  );
  console.log(
    `   ${rtf.audioSeconds} s two-speaker English call (${rtf.speechSeconds} s of speech); model load ${rtf.modelLoadSeconds} s; warm-up run ${rtf.warmupSeconds} s\n`,
  );
  console.log(
    `   Baseline: ASR_BATCH=0 (each chunk decoded alone, a recognition thread per core), language given. Same words as the baseline: ${rtf.baseline.sameWords ? 'yes' : 'NO'}`,
  );
  console.log(
    `   CPU seconds per audio second (language given): ${rtf.cpuPerAudio} (baseline ${rtf.baseline.cpuPerAudio}); RSS the models added, ${rtf.languages.join('+')} on every thread: ${rtf.modelsMB} MB\n`,
  );
  console.log(
    table(
      [
        'language',
        'detected',
        'audio s',
        'wall s',
        'RTF',
        'goal',
        'vs goal',
        '× baseline',
        '× faster than real time',
        'segments (agent/customer)',
      ],
      [
        ...rtf.runs.map((r) => [
          r.language,
          r.detectedLanguage,
          rtf.audioSeconds,
          r.wallSeconds.toFixed(2),
          r.rtf.toFixed(3),
          `≤ ${RTF_GOAL}`,
          r.rtf <= RTF_GOAL ? 'met' : 'NOT met',
          `${(r.rtf / rtf.baseline.rtf).toFixed(2)}×`,
          `${r.timesFasterThanRealTime.toFixed(1)}×`,
          `${r.segments} (${r.agentSegments}/${r.customerSegments})`,
        ]),
        [
          'en, baseline: ASR_BATCH=0',
          'en',
          rtf.audioSeconds,
          rtf.baseline.wallSeconds.toFixed(2),
          rtf.baseline.rtf.toFixed(3),
          '—',
          '—',
          '1.00×',
          `${(1 / rtf.baseline.rtf).toFixed(1)}×`,
          '—',
        ],
      ],
    ),
  );
  console.log(
    `\n2. Intake 201 → webhook received: service api+worker in one process, WORKER_CONCURRENCY=${svc.workerConcurrency}, ${shortRange} calls (WAV, language detected)\n`,
  );
  const row = (label: string, l: LatencySummary | null, cold?: CallOutcome | null) => {
    if (cold)
      return [
        label,
        cold.error ? '0/1' : '1/1',
        s(cold.latencyMs),
        s(cold.latencyMs),
        s(cold.latencyMs),
        s(cold.stages?.queuedMs),
        s(cold.stages?.transcribingMs),
        s(cold.stages?.analyzingMs),
        s(cold.stages?.deliveryMs),
      ];
    return [
      label,
      `${l!.ok}/${l!.calls}`,
      s(l!.p50Ms),
      s(l!.p95Ms),
      s(l!.maxMs),
      s(l!.stagesP50Ms?.queued),
      s(l!.stagesP50Ms?.transcribing),
      s(l!.stagesP50Ms?.analyzing),
      s(l!.stagesP50Ms?.delivery),
    ];
  };
  const rows = [];
  if (svc.sequential.cold) rows.push(row('sequential, 1st (cold)', null, svc.sequential.cold));
  if (svc.sequential.warm.calls) rows.push(row('sequential, rest (warm)', svc.sequential.warm));
  if (svc.burst.calls) rows.push(row(`burst of ${svc.burst.calls}`, svc.burst));
  console.log(
    table(['phase', 'ok', 'p50 s', 'p95 s', 'max s', 'queue wait', 'transcribe', 'analyze+wait', 'delivery'], rows),
  );
  const num = (x: number, unit: string) => (Number.isFinite(x) ? `${x}${unit}` : '—');
  console.log(
    `\nburst throughput: ${num(svc.burst.callsPerMinute, ' calls/min')} (${num(svc.burst.audioMinutesPerMinute, ' audio min/min')}), ${num(svc.burst.wallSeconds, ' s')} from first post to last webhook${svc.burst.ok < svc.burst.calls ? ` (${svc.burst.ok} of ${svc.burst.calls} calls)` : ''}`,
  );
  console.log(`service peak RSS: ${svc.peakRssMB} MB; webhook deliveries received: ${svc.webhookDeliveries}`);
  console.log(
    'Latency = receiver got the signed call.analyzed − client got 201. Stage columns (s) are p50s from call_events:',
  );
  console.log(
    'queue wait = queued → transcribing; transcribe = → analyzing; analyze+wait = → analyzed (includes the analyze job',
  );
  console.log(
    'waiting for a worker slot); delivery = analyzed → webhook received. RTF = wall / audio (lower is faster).',
  );
  const cpu = (x: number) => `${x} CPU-s per audio-s`;
  const given = rtf.runs.find((r) => r.language === 'en');
  console.log(
    `\n3. The default (ASR_BATCH=${DEFAULT_BATCH}) against ASR_BATCH=0: transcription as in 1 (language given), the worker's peak RSS as in 2 (api + worker in one process, as \`npm start\` runs; models loaded by its calls, phrase scoring included)\n`,
  );
  console.log(
    table(
      ['decoder', 'RTF', 'CPU', 'worker peak RSS', `goal ≤ ${RSS_GOAL_MB} MB`, 'burst calls/min', 'same words'],
      [
        [
          `default (ASR_BATCH=${DEFAULT_BATCH})`,
          given ? given.rtf.toFixed(3) : '—',
          cpu(rtf.cpuPerAudio),
          `${svc.peakRssMB} MB`,
          svc.peakRssMB <= RSS_GOAL_MB ? 'met' : 'NOT met',
          num(svc.burst.callsPerMinute, ''),
          rtf.baseline.sameWords ? 'yes' : 'NO',
        ],
        [
          'baseline (ASR_BATCH=0)',
          rtf.baseline.rtf.toFixed(3),
          cpu(rtf.baseline.cpuPerAudio),
          `${base.peakRssMB} MB`,
          base.peakRssMB <= RSS_GOAL_MB ? 'met' : 'not met',
          num(base.burst.callsPerMinute, ''),
          '—',
        ],
      ],
    ),
  );
  if (failures.length) console.log(`\nFAILED CALLS:\n  ${failures.join('\n  ')}`);
}

await main();
