// `node scripts/bench/service-memory.ts <audio file> [--role all|worker]`: the memory of the process
// `npm start` runs (issue 30: one worker ≤ 700 MiB with both languages loaded). It starts the service as
// src/main.ts does (itself again with the allocator settings and V8 options, then both roles, or one,
// on a throwaway database of the local PostgreSQL), loads both languages' models into the worker's
// engines (the defaults: ASR_BATCH, one recognition thread, the encoder thread) and transcribes the file
// through them in this process, as a job would. Prints the RSS and the main thread's V8 heap after each
// phase, the peak (VmHWM) of the load and of the call in MiB, the call's CPU seconds per audio second and
// the transcript's SHA-1.
// No TypeScript loader: Node's own type stripping, as `npm start` runs.
import '../../src/service/allocator-exec.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { closePipelineEngines, pipelineEngines } from '../../src/calls/transcribe-call.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createLogger } from '../../src/log.ts';
import { startService } from '../../src/service/start.ts';
import type { HeapTrimmer } from '../../src/transcription/heap-trim.ts';
import { transcribeFile } from '../../src/transcription/index.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { role: { type: 'string', default: 'all' } },
});
const file = positionals[0];
if (!file || !['all', 'worker'].includes(values.role)) {
  console.error('usage: node scripts/bench/service-memory.ts <audio file> [--role all|worker]');
  process.exit(2);
}

const status = () => readFileSync('/proc/self/status', 'utf8');
const mib = (field: string) =>
  Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status())?.[1]) / 1024);
const phase = (name: string) => {
  const heap = process.memoryUsage();
  const line = `${name}: RSS ${mib('VmRSS')} MiB, peak ${mib('VmHWM')} MiB, main heap ${Math.round(heap.heapTotal / 2 ** 20)} MiB`;
  console.log(line);
};

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `escucha_memory_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
await migrate(url.toString());
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-memory-'));
const config = loadConfig({
  ...process.env,
  DATABASE_URL: url.toString(),
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'silent',
  APP_SECRET: 'e5c0c4a0'.repeat(8),
});
const service = await startService(config, { api: values.role === 'all', worker: true }, createLogger('silent'));
try {
  if (service.url) {
    // The web app as a browser first asks for it, so its bundle is read and served.
    const html = await (await fetch(`${service.url}/`)).text();
    for (const m of html.matchAll(/(?:src|href)="(\/[^"]+)"/g)) await (await fetch(service.url + m[1])).arrayBuffer();
  }
  phase('started');
  const engines = pipelineEngines(service.app);
  const engine = engines.find((e) => e.languages.includes('es') && e.languages.includes('en'))!;
  // Both languages loaded, as a worker that has heard calls in both.
  for (const language of ['en', 'es']) await engine.transcribeChunk(new Float32Array(16000), language);
  phase('models loaded');
  const loadPeak = mib('VmHWM');
  // The call's own peak: Linux resets the high-water mark on request.
  writeFileSync('/proc/self/clear_refs', '5');
  const cpu = process.cpuUsage();
  const result = await transcribeFile(file, { engines: [engine], language: 'en' });
  const { user, system } = process.cpuUsage(cpu);
  phase('call transcribed');
  const text = result.segments.map((s) => s.text).join(' ');
  console.log(
    JSON.stringify({
      role: values.role,
      loadPeakMiB: loadPeak,
      callPeakMiB: mib('VmHWM'),
      audioSeconds: Math.round(result.durationSeconds),
      // Every thread's, as bench:asr counts it (ffmpeg, a child process, not included).
      cpuPerAudioSecond: Number(((user + system) / 1e6 / result.durationSeconds).toFixed(3)),
      words: createHash('sha1').update(text).digest('hex').slice(0, 10),
      // malloc trimmed during the call (src/transcription/heap-trim.ts; null: no trimmer).
      trims: 'trimmer' in engine ? (engine.trimmer as HeapTrimmer).trims : null,
    }),
  );
  await closePipelineEngines(engines);
} finally {
  await service.close(1000);
  // FORCE ends what may still be closing: the app pool's connections (Prisma lets go of them without
  // waiting), whose error handler stays on. The worker's job pool is closed by then (src/jobs/job-pool.ts).
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
