/** The shape of a command of the command-line entry: its name, what it does, its options, its main. */
export interface CommandOption {
  flag: string;
  /** What the option takes, e.g. "FILE"; absent for a switch. */
  value?: string;
  meaning: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: CommandOption[];
  /** Returns the process exit code. */
  main(argv: string[]): Promise<number>;
}

export function helpOf(command: Command): string {
  const width = Math.max(...command.options.map((o) => o.flag.length + (o.value ? o.value.length + 1 : 0)), 10);
  const lines = [`usage: ${command.usage}`, '', command.summary, '', 'options:'];
  for (const o of command.options) lines.push(`  ${`${o.flag}${o.value ? ` ${o.value}` : ''}`.padEnd(width + 2)}${o.meaning}`);
  lines.push(`  ${'--help'.padEnd(width + 2)}this help`);
  return lines.join('\n');
}
