// Child of `npm run bench:pipeline`: the real service with both roles (api + worker) in one process,
// on a random loopback port. Reports its URL and, on request, its own peak RSS over IPC (see lib.ts).
// Configuration comes from the environment the parent sets (DATABASE_URL, DATA_DIR,
// WORKER_CONCURRENCY, WEBHOOK_ALLOW_PRIVATE, …); its data folder is removed on stop.
import { rmSync } from 'node:fs';
import { startService } from '../../src/app/start.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { serveParent, tellParent } from './lib.ts';

try {
  const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
  const service = await startService(config, { api: true, worker: true }, createLogger(config.logLevel));
  serveParent(async () => {
    await service.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  });
  tellParent({ type: 'ready', url: service.url! });
} catch (error) {
  tellParent({ type: 'error', message: (error as Error).stack ?? String(error) });
  process.exit(1);
}
