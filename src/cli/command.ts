import type { AppContext } from '../context.ts';
import type { OptionSpecs, OptionValues } from './options.ts';

export interface Command<O extends OptionSpecs = OptionSpecs> {
  name: string;
  summary: string;
  options: O;
  /** Returns what is printed as JSON on stdout. */
  run(app: AppContext, values: OptionValues<O>): Promise<unknown>;
}

/** Keeps each command's option names and kinds visible to its handler's types. */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}
