/**
 * A small option parser shared by the commands: `--flag value`, `--flag=value`, switches, and everything
 * it does not know kept in order as the rest (the run command hands the rest to vitest).
 */
export interface ParsedArgs {
  values: Record<string, string>;
  switches: Set<string>;
  rest: string[];
}

export function parseArgs(argv: readonly string[], spec: { values: readonly string[]; switches: readonly string[] }): ParsedArgs {
  const out: ParsedArgs = { values: {}, switches: new Set(), rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (flag === '--') {
      out.rest.push(...argv.slice(i + 1));
      break;
    }
    if (spec.values.includes(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new Error(`${flag} needs a value`);
      out.values[flag] = value;
    } else if (spec.switches.includes(flag)) {
      out.switches.add(flag);
    } else {
      out.rest.push(arg);
    }
  }
  return out;
}
