import type { Command } from './command.ts';

const INVOCATION = 'npm run cli --';

function optionLine(name: string, o: Command['options'][string]): string {
  const flag = o.kind === 'flag' ? `--${name}` : `--${name} ${o.placeholder ?? 'VALUE'}`;
  return `    ${(o.required ? flag : `[${flag}]`).padEnd(26)} ${o.description}`;
}

export function commandHelp(c: Command): string {
  const lines = [
    `${INVOCATION} ${c.name}`,
    `  ${c.summary}`,
    ...Object.entries(c.options).map(([n, o]) => optionLine(n, o)),
  ];
  return `${lines.join('\n')}\n`;
}

export function overallHelp(commands: readonly Command[]): string {
  return [
    `Usage: ${INVOCATION} <command> [options]`,
    '',
    'Prints JSON on stdout; errors go to stderr. Exit codes: 0 ok, 1 refused (e.g. not found, seat limit), 2 bad arguments.',
    'Uses DATABASE_URL, or the embedded PostgreSQL of `npm start` (connecting to it if it is running).',
    '',
    ...commands.map((c) => commandHelp(c)),
    `${INVOCATION} help [command]`,
    '',
  ].join('\n');
}
