// Runs in every test file: fails the file when pg warns that a client got a query while busy, i.e.
// a transaction ran queries concurrently on its one connection (see src/db/client.ts).
import { afterAll } from 'vitest';

const overlapping: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.message.includes('already executing a query')) overlapping.push(warning.stack ?? warning.message);
};
process.on('warning', onWarning);

afterAll(() => {
  process.off('warning', onWarning);
  if (overlapping.length)
    throw new Error(`Queries overlapped on one pg client (a transaction ran them concurrently):\n${overlapping[0]}`);
});
