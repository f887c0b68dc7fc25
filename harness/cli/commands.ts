/**
 * The commands of the command-line entry, in the order `--help` lists them. Each is imported only when it
 * runs (or for the list of `--help`): `run`, what `npm test` starts, does not pay for certify's signing
 * and pack modules, nor for the target file's schema when it has no target file.
 */
import type { Command } from './command.ts';

const LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  run: async () => (await import('./run.ts')).runCommand,
  certify: async () => (await import('./certify.ts')).certifyCommand,
  sandbox: async () => (await import('./sandbox.ts')).sandboxCommand,
  merge: async () => (await import('./merge.ts')).mergeCommand,
  diff: async () => (await import('./diff.ts')).diffCommand,
};

/** Every command's name, in the order `--help` lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command of this name, or undefined when there is none. */
export function commandNamed(name: string): Promise<Command> | undefined {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name]() : undefined;
}

/** Every command, in the order `--help` lists them. */
export function allCommands(): Promise<Command[]> {
  return Promise.all(Object.values(LOADERS).map((load) => load()));
}

export async function mainHelp(): Promise<string> {
  const commands = await allCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: partner-conformance <command> [options]     (partner-conformance <command> --help for its options)',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width + 2)}${c.summary}`),
  ].join('\n');
}
