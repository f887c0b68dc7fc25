/** The commands of the command-line entry, in the order `--help` lists them. */
import { certifyCommand } from './certify.ts';
import type { Command } from './command.ts';
import { diffCommand } from './diff.ts';
import { mergeCommand } from './merge.ts';
import { runCommand } from './run.ts';
import { sandboxCommand } from './sandbox.ts';

export const COMMANDS: readonly Command[] = [runCommand, certifyCommand, sandboxCommand, mergeCommand, diffCommand];

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: partner-conformance <command> [options]     (partner-conformance <command> --help for its options)',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width + 2)}${c.summary}`),
  ].join('\n');
}
