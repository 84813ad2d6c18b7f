import type { AppContext } from '../context.ts';
import { ConfigError } from '../config.ts';
import { DomainError, type ErrorKind } from '../domain/errors.ts';
import { commands, findCommand } from './commands.ts';
import { UsageError } from './errors.ts';
import { commandHelp, overallHelp } from './help.ts';
import { parseOptions } from './options.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** An app, or a way to open one: the database is only reached once the arguments are known to be good. */
export type AppSource = AppContext | (() => Promise<AppContext>);

// Prisma returns BigInt for some columns; JSON.stringify would throw on them.
const toJson = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2);

/**
 * Exit code of a refused operation, by error kind (0 ok; 2 is kept for a command line that cannot be
 * parsed, UsageError/ConfigError). Every kind says its code, so a new kind cannot slip into a default.
 */
export const EXIT_CODE = {
  request: 1,
  unauthenticated: 1,
  credentials: 1,
  forbidden: 1,
  not_found: 1,
  rate_limited: 1,
  validation: 1,
  conflict: 1,
  limit: 1,
  internal: 1,
} as const satisfies Record<ErrorKind, number>;

/** Runs one CLI invocation and returns its exit code (0 ok, 1 refused, 2 bad arguments). */
export async function runCli(argv: readonly string[], source: AppSource, io: CliIo = processIo): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name === undefined) throw new UsageError(`missing command (run "npm run cli -- help" for the list)`);
    if (name === 'help' || name === '--help' || name === '-h') {
      const topic = args[0] === undefined ? undefined : findCommand(args[0]);
      if (args[0] !== undefined && !topic) throw new UsageError(`help: unknown command "${args[0]}"`);
      io.stdout(topic ? commandHelp(topic) : overallHelp(commands));
      return 0;
    }
    const command = findCommand(name);
    if (!command) throw new UsageError(`unknown command "${name}" (run "npm run cli -- help" for the list)`);
    const { help, values } = parseOptions(command.name, command.options, args);
    if (help) {
      io.stdout(commandHelp(command));
      return 0;
    }
    const app = typeof source === 'function' ? await source() : source;
    const result = await command.run(app, values);
    io.stdout(`${toJson(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      // Config messages list one variable per line; the rest are one line already.
      io.stderr(`error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DomainError) {
      io.stderr(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
      return EXIT_CODE[error.kind];
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`${JSON.stringify({ error: { code: 'internal', message } })}\n`);
    return EXIT_CODE.internal;
  }
}
