import { parseArgs } from 'node:util';
import { isUuid } from '../accounts/api-keys.ts';
import { UsageError } from './errors.ts';

/** How an option is read: `uuid` and `count` are checked here so handlers never see a malformed id or number. */
export type OptionKind = 'text' | 'uuid' | 'count' | 'flag';

export interface OptionSpec {
  kind: OptionKind;
  required?: boolean;
  /** Shown in help, e.g. "--minutes M". */
  placeholder?: string;
  description: string;
}

export type OptionSpecs = Record<string, OptionSpec>;

// A command's options in one line each: `name: required(text('N', 'agent name'))`.
export const text = (placeholder: string, description: string) => ({ kind: 'text', placeholder, description }) as const;
export const uuid = (placeholder: string, description: string) => ({ kind: 'uuid', placeholder, description }) as const;
export const count = (placeholder: string, description: string) =>
  ({ kind: 'count', placeholder, description }) as const;
export const flag = (description: string) => ({ kind: 'flag', description }) as const;
/** An option the command cannot run without (parsing refuses the command when it is missing). */
export const required = <S extends OptionSpec>(spec: S): S & { required: true } => ({ ...spec, required: true });

type ValueOf<S extends OptionSpec> = S['kind'] extends 'flag' ? boolean : S['kind'] extends 'count' ? number : string;

/** Typed option values: required options are always present, the rest may be undefined. */
export type OptionValues<O extends OptionSpecs> = {
  [K in keyof O as O[K]['required'] extends true ? K : never]: ValueOf<O[K]>;
} & {
  [K in keyof O as O[K]['required'] extends true ? never : K]?: ValueOf<O[K]>;
};

const MAX_COUNT = 2_147_483_647; // PostgreSQL integer

function convert(name: string, spec: OptionSpec, raw: string | boolean): string | number | boolean {
  if (spec.kind === 'flag') return raw;
  const value = String(raw);
  if (spec.kind === 'uuid' && !isUuid(value)) throw new UsageError(`--${name} must be a UUID, got "${value}"`);
  if (spec.kind === 'count') {
    if (!/^\d+$/.test(value) || Number(value) > MAX_COUNT)
      throw new UsageError(`--${name} must be a whole number ≥ 0, got "${value}"`);
    return Number(value);
  }
  return value;
}

// node:util's messages span several lines and talk about positionals; ours name the command and option.
function rephrase(command: string, error: unknown): UsageError {
  const e = error as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(e.message ?? '')?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`${command}: unknown option ${option ?? ''}`.trimEnd());
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(
        `${command}: unexpected argument ${/'([^']*)'/.exec(e.message ?? '')?.[1] ?? ''} (options are written --name value)`,
      );
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(`${command}: option ${option ?? ''} needs a value`);
    default:
      return new UsageError(`${command}: ${(e.message ?? String(error)).split('\n')[0]}`);
  }
}

/** Parses `args` strictly against `specs`; `help` is true when --help/-h was given. */
export function parseOptions<O extends OptionSpecs>(
  command: string,
  specs: O,
  args: string[],
): { help: boolean; values: OptionValues<O> } {
  const config = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.kind === 'flag' ? ('boolean' as const) : ('string' as const) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      options: { ...config, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw rephrase(command, error);
  }
  const raw = parsed.values as Record<string, string | boolean | undefined>;
  if (raw.help) return { help: true, values: {} as OptionValues<O> };
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    const v = raw[name];
    if (v === undefined) {
      if (spec.required) missing.push(`--${name}`);
      continue;
    }
    values[name] = convert(name, spec, v);
  }
  if (missing.length)
    throw new UsageError(`${command}: missing required option${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return { help: false, values: values as OptionValues<O> };
}
