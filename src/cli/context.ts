import pg from 'pg';
import pino from 'pino';
import type { AppContext } from '../context.ts';
import { type Config, ConfigError } from '../config.ts';
import { APP_SECRET_MISMATCH, appSecretMatches } from '../crypto/key-check.ts';
import { createDb } from '../db/client.ts';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../db/embedded.ts';
import { migrate } from '../db/migrate.ts';
import type { Logger } from '../log.ts';
import { createStorage } from '../storage/index.ts';

export interface CliContext {
  app: AppContext;
  close(): Promise<void>;
}

/** Logs go to stderr so stdout stays pure JSON; quiet unless LOG_LEVEL asks for more. */
export function cliLogger(level: string): Logger {
  return pino({ level, base: null }, pino.destination({ dest: 2, sync: true }));
}

/** true: a server answered; false: nothing listens on the port; throws when something answered but refused us. */
async function serving(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') return false;
    const port = new URL(url).port;
    throw new Error(
      `PostgreSQL on port ${port} answered but the escucha database is not usable (${(error as Error).message}); is \`npm start\` still starting?`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Without DATABASE_URL the CLI shares `npm start`'s embedded data folder. PostgreSQL allows one
 * postmaster per folder, so when the service already runs it we connect to it instead of starting.
 */
async function resolveDatabase(config: Config, log: Logger): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  // The running server's port is in its postmaster.pid (it may have been chosen because 54329 was taken).
  const url = runningEmbeddedUrl(config.dataDir);
  if (url && (await serving(url))) {
    log.info({ port: new URL(url).port }, 'using the running embedded PostgreSQL');
    return { url };
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
  return { url: embedded.url, stop: () => embedded.stop() };
}

/** Opens the database (migrated, as `npm start` would) and builds the AppContext commands run with. */
export async function openCliContext(
  config: Config,
  log: Logger = cliLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn'),
): Promise<CliContext> {
  const { url, stop } = await resolveDatabase(config, log);
  try {
    await migrate(url);
  } catch (error) {
    await stop?.();
    throw error;
  }
  const db = createDb(url, { max: 2 });
  // A CLI with another APP_SECRET would seal webhook secrets the service cannot open (issue 25).
  if (!(await appSecretMatches(db, config.appSecret))) {
    await db.$disconnect();
    await stop?.();
    throw new ConfigError(APP_SECRET_MISMATCH);
  }
  return {
    app: { config: { ...config, databaseUrl: url }, log, db, storage: createStorage(config) },
    async close() {
      await db.$disconnect();
      await stop?.();
    },
  };
}
