// Shared pieces of the benchmarks: a throwaway PostgreSQL database, children that report their
// own peak memory over IPC, and small statistics helpers. Progress goes to stderr so that
// `--json` output on stdout stays machine-readable.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { peakRssKb } from './peak-rss.ts';
import { localOrEmbeddedPostgres, withDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { NODE_MEMORY_FLAGS } from '../../src/service/allocator.ts';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
export const MiB = 1_048_576;

export const note = (msg: string) => process.stderr.write(`${msg}\n`);

// ---------------------------------------------------------------------------------------------
// Database
// ---------------------------------------------------------------------------------------------

export interface BenchDb {
  /** The migrated throwaway database. */
  url: string;
  /** True when a kept database of this name already existed and was reused (see `keep`). */
  reused: boolean;
  /** Where it lives: the local server, or an embedded one started for this run. */
  server: 'local' | 'embedded';
  drop(): Promise<void>;
}

/**
 * CREATE DATABASE escucha_bench_<pid> on the local server (BENCH_DATABASE_URL / TEST_DATABASE_URL
 * or postgres://postgres@127.0.0.1:5432/postgres), or on an embedded server in a temp dir when
 * there is none; migrated; dropped (and the embedded server removed) by drop().
 *
 * `keep: NAME` (local server only) uses the database NAME instead and never drops it: an existing
 * one is reused as it is (migrated to the current schema; `reused` is true) so a benchmark that
 * seeds for minutes can be rerun at once while iterating. An embedded server is a temp folder, so
 * there `keep` is ignored.
 */
export async function createBenchDb(options: { keep?: string } = {}): Promise<BenchDb> {
  const requested =
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const server = await localOrEmbeddedPostgres(requested, {
    tmpPrefix: 'escucha-benchpg-',
    port: 56000 + (process.pid % 1000),
    onFallback: () => note(`no PostgreSQL at ${requested.replace(/\/\/[^@]*@/, '//…@')}; starting an embedded one`),
  });
  const adminUrl = server.url;
  const keep = server.embedded ? undefined : options.keep;
  if (options.keep && !keep) note('an embedded server does not outlive the run: the database is not kept');
  if (keep && !/^[a-z_][a-z0-9_]*$/.test(keep)) throw new Error(`not a plain database name: ${keep}`);
  const name = keep ?? `escucha_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let reused = false;
  if (keep) {
    reused = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } else {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  if (!reused) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  await migrate(url);
  let dropped = false;
  return {
    url,
    reused,
    server: server.embedded ? 'embedded' : 'local',
    async drop() {
      if (dropped) return;
      dropped = true;
      if (keep) return;
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => a.end());
      await server.stop();
    },
  };
}

export interface BenchWorkspace {
  /** A temp folder for this run's files. */
  work: string;
  /** Creates the throwaway database (see createBenchDb); cleanup() drops it unless it is kept. */
  createBenchDb(options?: { keep?: string }): Promise<BenchDb>;
  /** Drops the database and removes the folder; runs once. */
  cleanup(): Promise<void>;
}

/**
 * A temp folder (`<tmpdir>/<prefix>…`) and, on demand, a throwaway database for one benchmark run.
 * Both are removed by cleanup(), which also runs on SIGINT/SIGTERM before exiting with 130.
 */
export function benchWorkspace(prefix: string): BenchWorkspace {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  let db: BenchDb | null = null;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    await db?.drop().catch((e: Error) => note(`could not drop the bench database: ${e.message}`));
    rmSync(work, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }
  return { work, createBenchDb: async (options) => (db = await createBenchDb(options)), cleanup };
}

// ---------------------------------------------------------------------------------------------
// Measured children
// ---------------------------------------------------------------------------------------------

/** Messages a measured child sends to its parent. */
export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'rss'; maxRssKb: number; rssBytes: number; cpuMicros: number }
  | { type: 'error'; message: string };
/** Messages the parent sends to a measured child. */
export type ParentMessage = { type: 'rss' } | { type: 'stop' };

export interface MeasuredChild {
  url: string;
  /** Peak resident set size of the child so far (its own VmHWM: ./peak-rss.ts), in bytes. */
  maxRss(): Promise<number>;
  /** CPU time (user + system) the child has used so far, in ms: a figure other load on the machine barely moves. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
/** Children are killed (by their own pid) if the parent dies or is interrupted. */
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Forks a TypeScript child (through tsx) with an IPC channel and waits for its `ready` message. */
export async function startChild(
  file: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<MeasuredChild> {
  const child = fork(file, [], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    // BENCH_CPU_PROF=DIR writes a V8 CPU profile of the child (the service) into DIR when it stops.
    execArgv: [
      // The V8 options `npm start` gives the service (a forked child cannot start itself again with them).
      ...NODE_MEMORY_FLAGS,
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      // BENCH_NODE_FLAGS="--trace-gc …" adds Node/V8 flags to the child (to see what its GC does).
      ...(process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${path.basename(file)} did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child.on('message', function onMessage(m: ChildMessage) {
      if (m.type === 'ready') resolve(m.url);
      else if (m.type === 'error') reject(new Error(`${path.basename(file)}: ${m.message}`));
      else return;
      clearTimeout(timer);
      child.off('message', onMessage);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(file)} exited with code ${code} before it was ready`));
    });
  });
  const ask = () =>
    new Promise<Extract<ChildMessage, { type: 'rss' }>>((resolve, reject) => {
      const onMessage = (m: ChildMessage) => {
        if (m.type !== 'rss') return;
        child.off('message', onMessage);
        resolve(m);
      };
      child.on('message', onMessage);
      child.once('exit', () => reject(new Error(`${path.basename(file)} exited`)));
      child.send({ type: 'rss' } satisfies ParentMessage);
    });
  return {
    url,
    maxRss: async () => (await ask()).maxRssKb * 1024, // Linux reports maxRSS in kilobytes.
    cpuMs: async () => (await ask()).cpuMicros / 1000,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ type: 'stop' } satisfies ParentMessage);
      }),
  };
}

/** The child side: answers the parent's memory questions and stops cleanly when asked. */
export function serveParent(onStop: () => Promise<void>): void {
  process.on('message', async (m: ParentMessage) => {
    if (m.type === 'rss') {
      const msg: ChildMessage = {
        type: 'rss',
        maxRssKb: peakRssKb(),
        rssBytes: process.memoryUsage.rss(),
        cpuMicros: process.cpuUsage().user + process.cpuUsage().system,
      };
      process.send!(msg);
    } else if (m.type === 'stop') {
      await onStop().catch(() => {});
      process.exit(0);
    }
  });
  // An orphaned child (parent killed) must not linger.
  process.on('disconnect', () => void onStop().finally(() => process.exit(0)));
}

/**
 * The APP_SECRET of every service a bench starts. A database remembers the secret its webhook secrets
 * are sealed with and a service started with another refuses to start (src/crypto/key-check.ts), so
 * the services a bench starts one after another on one database (and a kept bench database reused by a
 * later run) must share one. Bench databases hold nothing secret.
 */
export const BENCH_APP_SECRET = 'e5c0c4a0'.repeat(8);

export function tellParent(msg: ChildMessage): void {
  process.send?.(msg);
}

/**
 * The child side of a measured service: the real service with `roles` on a random loopback port,
 * configured from the environment the parent sets (DATABASE_URL, DATA_DIR, …). Reports its URL,
 * answers memory questions, and removes its data folder on stop. The service is imported here
 * rather than at the top so parents that only use lib.ts don't load it.
 */
export async function serveMeasuredService(roles: { api: boolean; worker: boolean }, logLevel: string): Promise<void> {
  try {
    const { startService } = await import('../../src/service/start.ts');
    const { loadConfig } = await import('../../src/config.ts');
    const { createLogger } = await import('../../src/log.ts');
    const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: logLevel });
    const service = await startService(config, roles, createLogger(config.logLevel));
    serveParent(async () => {
      await service.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    tellParent({ type: 'ready', url: service.url! });
  } catch (error) {
    tellParent({ type: 'error', message: (error as Error).stack ?? String(error) });
    process.exit(1);
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting
// ---------------------------------------------------------------------------------------------

/** Nearest-rank percentile of an ascending-sorted list. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

export const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);
