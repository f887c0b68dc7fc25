/**
 * `partner-conformance run` (what `npm test` runs): checks the target file before vitest starts, so that a
 * bad file ends with one short message and exit 2 (and reports that say the run errored) instead of a
 * page of vitest output; then runs the suite and turns its summary into the exit code:
 *   0 everything checked passed · 1 a contract failure · 2 tool or configuration errors only, or nothing checked
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolError } from '../errors.ts';
import { erroredSummary, exitCodeOf, type RunSummary } from '../report/records.ts';
import { writeReports } from '../report/summary-reporter.ts';
import { renderText } from '../report/text.ts';
import { runSettings } from '../runner/settings.ts';
import { loadTarget } from '../target.ts';
import type { Command } from './command.ts';
import { runVitest } from './vitest-process.ts';

interface RunOptions {
  target?: string;
  reports?: string;
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
    else if (flag === '--help' || flag === '-h') out.help = true;
    else if (flag === '--') out.vitestArgs.push(...argv.slice(i + 1)), (i = argv.length);
    else out.vitestArgs.push(arg);
  }
  return out;
}

function fail(reportDir: string, error: { code: ToolError['code']; message: string }): number {
  const summary = erroredSummary(error);
  writeReports(reportDir, summary);
  console.error(`partner-conformance: ${error.message}`);
  console.error(`the run did not start; reports that say so are in ${reportDir}`);
  console.log(renderText(summary).split('\n').slice(-1)[0]);
  return 2;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Runs the conformance suite against a target (default: the embedded sandbox, started on free loopback ports) and writes junit.xml, conformance.json and conformance.md.',
  usage: 'partner-conformance run [--target FILE] [--reports DIR] [vitest options and files]',
  options: [
    { flag: '--target', value: 'FILE', meaning: 'the target file (default: CONFORMANCE_TARGET, else the embedded sandbox)' },
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
    const env: Record<string, string> = {};
    const reportDir = resolve(options.reports ?? process.env.CONFORMANCE_REPORT_DIR ?? 'reports');
    env.CONFORMANCE_REPORT_DIR = reportDir;
    const targetFile = options.target ?? process.env.CONFORMANCE_TARGET;
    try {
      if (targetFile) {
        env.CONFORMANCE_TARGET = resolve(targetFile);
        const target = loadTarget(env.CONFORMANCE_TARGET);
        runSettings({ ...process.env, ...env }, target);
        for (const notice of (target as { notices?: string[] }).notices ?? []) console.log(`notice: ${notice}`);
      } else {
        runSettings({ ...process.env, ...env });
      }
    } catch (error) {
      const code = error instanceof ToolError ? error.code : 'TARGET_FILE_INVALID';
      return fail(reportDir, { code, message: error instanceof ToolError ? error.message : `${code}: ${(error as Error).message}` });
    }
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
