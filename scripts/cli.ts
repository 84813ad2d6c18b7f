// npm run cli -- <command> [options]: operator tasks (accounts, agents, keys, templates). See `help`.
import { loadConfig } from '../src/config.ts';
import { openCliContext, type CliContext } from '../src/cli/context.ts';
import { runCli } from '../src/cli/run.ts';

let opened: CliContext | undefined;
let code = await runCli(process.argv.slice(2), async () => {
  opened = await openCliContext(loadConfig());
  return opened.app;
});
try {
  await opened?.close();
} catch (error) {
  process.stderr.write(`warning: closing the database failed: ${(error as Error).message}\n`);
  code ||= 1;
}
// An explicit exit once both streams are flushed, so piped output is complete and the exit code
// is ours whatever a dependency left scheduled.
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
