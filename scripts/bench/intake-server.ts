// Child of `npm run bench:intake`: the real service, api role only, on a random loopback port.
// Reports its URL and, on request, its own peak RSS over IPC (see lib.ts). Configuration comes from
// the environment the parent sets (DATABASE_URL, DATA_DIR, …); its data folder is removed on stop.
import { serveMeasuredService } from './lib.ts';

await serveMeasuredService({ api: true, worker: false }, 'silent');
