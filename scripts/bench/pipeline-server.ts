// Child of `npm run bench:pipeline`: the real service with both roles (api + worker) in one process,
// on a random loopback port. Reports its URL and, on request, its own peak RSS over IPC (see lib.ts).
// Configuration comes from the environment the parent sets (DATABASE_URL, DATA_DIR,
// WORKER_CONCURRENCY, WEBHOOK_ALLOW_PRIVATE, …); its data folder is removed on stop.
import { serveMeasuredService } from './lib.ts';

await serveMeasuredService({ api: true, worker: true }, process.env.LOG_LEVEL ?? 'silent');
