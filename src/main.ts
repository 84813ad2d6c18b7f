// `npm start`: api + worker in one process (default). `--role api` or `--role worker` runs one part,
// so more api and worker processes can share one PostgreSQL.
// First: the process starts again with glibc malloc's settings when they are missing (./service/allocator.ts).
import './service/allocator-exec.ts';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { startService } from './service/start.ts';
import { StartupError } from './db/embedded.ts';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const role = values.role;
if (!['all', 'api', 'worker'].includes(role)) {
  console.error(`--role must be all, api or worker (got "${role}")`);
  process.exit(2);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
const log = createLogger(config.logLevel);
// A stray rejection in a dependency must not take intake down with it; it is logged loudly instead.
process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled promise rejection'));
let service: Awaited<ReturnType<typeof startService>>;
try {
  service = await startService(config, { api: role !== 'worker', worker: role !== 'api' }, log);
} catch (error) {
  // Every start-up failure ends in one line saying what is wrong, never an unhandled exception.
  if (error instanceof StartupError) console.error(`Escucha cannot start: ${error.message}`);
  else {
    log.fatal({ err: error }, 'start failed');
    console.error(`Escucha cannot start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  process.exit(error instanceof StartupError ? 2 : 1);
}
if (service.url) log.info(`Escucha is running: web app ${config.publicUrl}  ·  intake ${config.publicUrl}/v1/calls`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) {
      // A second Ctrl-C is a person who wants out now. A second SIGTERM is a process manager (or a
      // wrapper) repeating itself: the drain goes on, bounded by SHUTDOWN_GRACE_SECONDS.
      if (signal === 'SIGINT') process.exit(1);
      log.info({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down');
    await service.close();
    log.info('stopped');
    process.exit(0);
  });
}
