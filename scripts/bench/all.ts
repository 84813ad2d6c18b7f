// `npm run bench [-- args]`: every benchmark, one after another, each in its own process so none
// inherits another's memory. bench:intake always runs; pipeline.ts and export.ts run when present
// (other work adds them). Arguments are passed on to each; the exit code is the first failure's.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const benches = ['intake.ts', 'pipeline.ts', 'export.ts', 'scale.ts', 'sentiment.ts', 'diarization.ts'];
const args = process.argv.slice(2);
let exitCode = 0;

for (const name of benches) {
  const file = path.join(here, name);
  if (!existsSync(file)) {
    process.stderr.write(`\n== ${name}: not present yet, skipped\n`);
    continue;
  }
  process.stderr.write(`\n== ${name}\n`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
      cwd: path.resolve(here, '..', '..'),
      stdio: 'inherit',
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (c, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(c ?? (signal ? 128 : 1));
    });
  });
  if (code !== 0) {
    process.stderr.write(`== ${name} failed (exit code ${code})\n`);
    if (!exitCode) exitCode = code;
  }
}
process.exitCode = exitCode;
