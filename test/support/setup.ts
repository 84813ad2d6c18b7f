// Runs in every test file. Fails the file when
// - pg warns that a client got a query while busy, i.e. a transaction ran queries concurrently on
//   its one connection (see src/db/client.ts);
// - the file leaves servers, child processes or database connections open after its last hook
//   (a forgotten stop() of a service, worker pool, receiver or test database).
import { afterAll } from 'vitest';
import { checkLeaks, leakCheckDeferred } from './leaks.ts';

const overlapping: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.message.includes('already executing a query')) overlapping.push(warning.stack ?? warning.message);
};
process.on('warning', onWarning);

// Registered before the file's own hooks, so (vitest runs after-hooks as a stack) it runs last.
afterAll(async () => {
  process.off('warning', onWarning);
  if (overlapping.length)
    throw new Error(`Queries overlapped on one pg client (a transaction ran them concurrently):\n${overlapping[0]}`);
  if (!leakCheckDeferred()) await checkLeaks();
});
