/**
 * partner-conformance: the command-line entry. `partner-conformance <command> [options]`; `--help` lists
 * the commands, `<command> --help` a command's options, and `--version` the suite's version. Settings keep
 * one precedence: defaults < target file < environment < command line.
 */
import { didYouMean } from '../config/schema-errors.ts';
import { helpOf } from './command.ts';
import { COMMAND_NAMES, commandNamed, mainHelp } from './commands.ts';
import { escapeConsole } from './escaped-console.ts';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { suitePackage } = await import('../certify/suite-identity.ts');
    console.log(`partner-conformance ${suitePackage().version}`);
    return 0;
  }
  const command = await commandNamed(name);
  if (!command) {
    const meant = didYouMean(name, COMMAND_NAMES);
    console.error(`partner-conformance: unknown command "${name}"${meant ? `; did you mean ${meant}?` : ''}\n\n${await mainHelp()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(helpOf(command));
    return 0;
  }
  return command.main(rest);
}

escapeConsole();
process.exitCode = await main(process.argv.slice(2));
