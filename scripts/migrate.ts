// npm run db:migrate — applies the SQL migrations to DATABASE_URL (or the embedded database).
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { migrate } from '../src/db/migrate.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';

const config = loadConfig();
const log = createLogger(config.logLevel);
const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
try {
  const report = await migrate(config.databaseUrl ?? embedded!.url);
  console.log(JSON.stringify(report));
} finally {
  await embedded?.stop();
}
