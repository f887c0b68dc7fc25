/** A small parser for the options of a command: `--flag VALUE`, `--flag=VALUE`, switches, positionals. */
import type { CommandOption } from './command.ts';

export type OptionSpec = CommandOption;

/** Bad usage: reported as one line, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Values by flag (a switch that is present gives 'true'); anything not starting with -- is positional. */
export function parseOptions(argv: readonly string[], specs: readonly OptionSpec[]): { values: Record<string, string | undefined>; positionals: string[] } {
  const values: Record<string, string | undefined> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = specs.find((s) => s.flag === flag);
    if (!spec) throw new UsageError(`unknown option ${flag} (--help lists the options)`);
    if (!spec.value) {
      values[flag] = 'true';
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value (${spec.value})`);
    values[flag] = value;
  }
  return { values, positionals };
}
