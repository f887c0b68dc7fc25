/**
 * partner-conformance: the command-line entry. `partner-conformance <command> [options]`; `--help` lists
 * the commands and `<command> --help` a command's options. Settings keep one precedence:
 * defaults < target file < environment < command line.
 */
import { certifyCommand } from './certify.ts';
import { helpOf, type Command } from './command.ts';
import { runCommand } from './run.ts';
import { sandboxCommand } from './sandbox.ts';

export const COMMANDS: readonly Command[] = [runCommand, certifyCommand, sandboxCommand];

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: partner-conformance <command> [options]     (partner-conformance <command> --help for its options)',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width + 2)}${c.summary}`),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(mainHelp());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`partner-conformance: unknown command "${name}"\n\n${mainHelp()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(helpOf(command));
    return 0;
  }
  return command.main(rest);
}

process.exitCode = await main(process.argv.slice(2));
