/**
 * `partner-conformance run` (what `npm test` runs): checks the target file and the waiver file before
 * vitest starts, so that a bad file ends with one short message and exit 2 (and reports that say the run errored) instead of a
 * page of vitest output; then runs the suite and turns its summary into the exit code:
 *   0 everything checked passed · 1 a contract failure · 2 tool or configuration errors only, or nothing checked
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../errors.ts';
import { exitCodeOf, type RunSummary } from '../report/records.ts';
import type { Command } from './command.ts';
import { prepareRun, reportDirOf, RUN_OPTIONS, runDidNotStart, type PreparedRun } from './run-setup.ts';
import { runVitest } from './vitest-process.ts';

interface RunOptions {
  target?: string;
  reports?: string;
  waivers?: string;
  help: boolean;
  /** Everything else goes to vitest as it is (files, --shard, --reporter …). */
  vitestArgs: string[];
}

export function parseRunArgs(argv: string[]): RunOptions {
  const out: RunOptions = { help: false, vitestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--target') out.target = value();
    else if (flag === '--reports') out.reports = value();
    else if (flag === '--waivers') out.waivers = value();
    else if (flag === '--help' || flag === '-h') out.help = true;
    else if (flag === '--') out.vitestArgs.push(...argv.slice(i + 1)), (i = argv.length);
    else out.vitestArgs.push(arg);
  }
  return out;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Runs the conformance suite against a target (default: the embedded sandbox, started on free loopback ports) and writes junit.xml, conformance.json and conformance.md.',
  usage: 'partner-conformance run [--target FILE] [--waivers FILE] [--reports DIR] [vitest options and files]',
  options: [
    ...RUN_OPTIONS,
    { flag: '--reports', value: 'DIR', meaning: 'where reports go (default: CONFORMANCE_REPORT_DIR, else reports/)' },
  ],
  async main(argv) {
    let options: RunOptions;
    try {
      options = parseRunArgs(argv);
    } catch (error) {
      console.error(`partner-conformance run: ${(error as Error).message}`);
      return 2;
    }
    if (options.help) {
      const { helpOf } = await import('./command.ts');
      console.log(helpOf(runCommand));
      return 0;
    }
    let run: PreparedRun;
    try {
      run = prepareRun(options);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      return runDidNotStart('run', reportDirOf(options), error);
    }
    for (const notice of (run.target as { notices?: string[] } | undefined)?.notices ?? []) console.log(`notice: ${notice}`);
    const { env, reportDir } = run;
    const summaryFile = join(reportDir, 'conformance.json');
    rmSync(summaryFile, { force: true });
    const vitestCode = await runVitest(options.vitestArgs, env);
    if (!existsSync(summaryFile)) {
      // A blob (shard) run writes no summary: its merge does. Anything else without a summary is a tool failure.
      return vitestCode;
    }
    return exitCodeOf(JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary);
  },
};
