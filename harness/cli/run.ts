/**
 * `partner-conformance run` (what `npm test` runs): checks the target file, the settings and the waiver
 * file before vitest starts, so that a bad file ends with one short message and exit 2 (the last run's
 * reports left as they were) instead of a page of vitest output; then runs the suite, its reports written
 * into a fresh folder and swapped in whole once written (report/publish.ts), and turns its summary into the
 * exit code:
 *   0 everything checked passed · 1 a contract failure · 2 tool or configuration errors only, nothing
 *   checked, or the run was interrupted (SIGINT, SIGTERM, SIGHUP, or npm's end: it stops in order and
 *   reports what it has)
 * Command-line options win over the environment, which wins over the target file, which wins over defaults:
 * the options are handed to the run as the environment variables of harness/runner/settings.ts.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ToolError } from '../errors.ts';
import { makeStagingFolder, publishReports, reportFilesLine } from '../report/publish.ts';
import type { RunSummary } from '../report/records.ts';
import type { Target } from '../config/target.ts';
import { exitCodeOf, interruptedSummary } from '../report/records.ts';
import { reportDirProblem } from '../report/report-dir.ts';
import { DEPTHS, isDepth } from '../runner/depth.ts';
import {
  areasSetting,
  integerSetting,
  reportDirOf,
  runSettings,
  targetFileOf,
  variableOf,
  WAIVERS_ENV,
  type SettingVariable,
} from '../runner/settings.ts';
import { AREAS, type Area } from '../areas.ts';
import { parseArgs } from './args.ts';
import type { Command } from './command.ts';
import { interruption } from './interruption.ts';
import type { OnlyFailed } from './only-failed.ts';
import { checkRunInputs } from './run-inputs.ts';
import { areasOfFiles, areasToRun, suiteFilters } from './suite-filters.ts';
import { fileFilters, firstUnknown, unknownOptionMessage, vitestRunOptions } from './unknown-options.ts';
import { runVitest } from './vitest-process.ts';

const VALUE_FLAGS = ['--target', '--waivers', '--reports', '--areas', '--depth', '--seed', '--grep', '--shard', '--from'] as const;
const SWITCHES = ['--only-failed', '--progress'] as const;

export interface RunPlan {
  env: Record<string, string>;
  vitestArgs: string[];
  /** What the command line did not know, handed to vitest as it was typed. */
  passThrough: string[];
  reportDir: string;
  /** The flag that set a variable of the run, so that a message names what the user typed. */
  namedBy: Partial<Record<SettingVariable, string>>;
  onlyFailed?: OnlyFailed;
  /** The --grep pattern, if any. */
  grep?: string;
}

/** The run's environment and vitest arguments from the command line (validated, nothing run yet). */
export async function planRun(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<RunPlan> {
  const args = parseArgs(argv, { values: VALUE_FLAGS, switches: SWITCHES });
  const v = args.values;
  const out: Record<string, string> = {};
  const namedBy: RunPlan['namedBy'] = {};
  const vitestArgs = [...args.rest];
  const reportDir = resolve(v['--reports'] ?? reportDirOf(env));
  out.CONFORMANCE_REPORT_DIR = reportDir;
  if (v['--reports']) namedBy.CONFORMANCE_REPORT_DIR = '--reports';
  const target = v['--target'] ?? targetFileOf(env);
  if (target) out.CONFORMANCE_TARGET = resolve(target);
  const waivers = v['--waivers'] ?? variableOf(WAIVERS_ENV, env);
  if (waivers) out[WAIVERS_ENV] = resolve(waivers);
  if (v['--areas'] !== undefined) {
    areasSetting(v['--areas'], '--areas');
    out.CONFORMANCE_AREAS = v['--areas'];
    namedBy.CONFORMANCE_AREAS = '--areas';
  }
  if (v['--depth']) {
    if (!isDepth(v['--depth']))
      throw new ToolError('SETTING_INVALID', `--depth must be one of ${Object.keys(DEPTHS).join(', ')}, got "${v['--depth']}"`);
    out.CONFORMANCE_DEPTH = v['--depth'];
    // The command line wins over CONFORMANCE_RUNS in the environment.
    out.CONFORMANCE_RUNS = String(DEPTHS[v['--depth']]);
  }
  if (v['--seed'] !== undefined) {
    integerSetting(v['--seed'], '--seed', () => true, 'an integer');
    out.CONFORMANCE_SEED = v['--seed'];
    namedBy.CONFORMANCE_SEED = '--seed';
  }
  if (v['--grep']) vitestArgs.push('--testNamePattern', v['--grep']);
  if (v['--shard']) {
    const match = /^(\d+)\/(\d+)$/.exec(v['--shard']);
    if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2]))
      throw new ToolError('SETTING_INVALID', `--shard must be i/n with 1 <= i <= n, got "${v['--shard']}"`);
    vitestArgs.push(`--shard=${v['--shard']}`);
    out.CONFORMANCE_PACE_SHARE = String(1 / Number(match[2]));
  }
  if (args.switches.has('--progress')) out.CONFORMANCE_PROGRESS = '1';
  let onlyFailed: OnlyFailed | undefined;
  if (args.switches.has('--only-failed')) {
    const { planOnlyFailed } = await import('./only-failed.ts');
    onlyFailed = planOnlyFailed(resolve(v['--from'] ?? reportDir), {
      targetFile: out.CONFORMANCE_TARGET,
      sandboxFaults: (variableOf('CONFORMANCE_SANDBOX_FAULTS', env) ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
      seed: v['--seed'] !== undefined,
      depth: v['--depth'] !== undefined,
    });
    Object.assign(out, onlyFailed.env);
    vitestArgs.push(...onlyFailed.vitestArgs);
  }
  return { env: out, vitestArgs, passThrough: args.rest, reportDir, namedBy, onlyFailed, grep: v['--grep'] };
}

/** The one line for an option neither `run` nor vitest knows, or undefined. */
export async function unknownRunOption(passThrough: readonly string[]): Promise<string | undefined> {
  const own = [...VALUE_FLAGS, ...SWITCHES, '--help', '-h'];
  if (!firstUnknown(passThrough, own)) return undefined;
  const vitest = await vitestRunOptions();
  if (!vitest.length) return undefined;
  const unknown = firstUnknown(passThrough, [...own, ...vitest]);
  // Our own options come first in the guess: "--depht" meant --depth, not some option of vitest.
  return unknown ? unknownOptionMessage(unknown, [...own, ...vitest.filter((f) => f.startsWith('--'))]) : undefined;
}

/** A run refused before it starts: one line, exit 2, and the last run's reports left as they were. */
function refuse(reportDir: string, error: { message: string }): number {
  console.error(`partner-conformance: ${error.message}`);
  console.error(`the run did not start; the reports in ${reportDir} are the last run's, left as they were`);
  return 2;
}

/**
 * The areas the run will run tests of, when fewer than its target's: those of the suite folders it is
 * handed, of the failures it reruns, or of the requirement ids it greps. The run is told them
 * (CONFORMANCE_AREAS), so that its header, its coverage and the sandbox it starts are of those alone.
 */
function narrowedAreas(available: readonly Area[], plan: RunPlan, files: readonly string[]): Area[] | undefined {
  const failedAreas = plan.onlyFailed?.summary.tests.filter((t) => t.verdict === 'failed' || t.verdict === 'error').map((t) => t.area);
  const wanted = plan.onlyFailed
    ? failedAreas?.every(Boolean)
      ? (failedAreas as Area[])
      : undefined
    : files.length
      ? areasOfFiles(files)
      : areasToRun(available, plan.grep);
  const chosen = available.filter((a) => wanted?.includes(a));
  return chosen.length && chosen.length < available.length ? chosen : undefined;
}

/** The summary a run wrote into its folder, or undefined when it wrote none (or none whole). */
function summaryIn(dir: string): RunSummary | undefined {
  const file = join(dir, 'conformance.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunSummary;
  } catch {
    return undefined;
  }
}

/**
 * The run's inputs checked (target file, settings, waivers), and what it will run: the suite folders of
 * its areas added to the vitest arguments, and its environment told the areas it runs tests of.
 */
async function checkedSelection(plan: RunPlan): Promise<{ env: Record<string, string>; target: Target | undefined }> {
  const { target } = await checkRunInputs(plan.env, process.env, plan.namedBy);
  for (const notice of (target as { notices?: string[] } | undefined)?.notices ?? []) console.log(`notice: ${notice}`);
  const files = await fileFilters(plan.passThrough);
  const settings = runSettings({ ...process.env, ...plan.env }, target);
  const available = (target?.areas ?? AREAS).filter((a) => !settings.areas || settings.areas.includes(a));
  if (!files.length && !plan.onlyFailed) plan.vitestArgs.push(...suiteFilters(available, plan.grep));
  const narrowed = narrowedAreas(available, plan, files);
  return { env: narrowed ? { ...plan.env, CONFORMANCE_AREAS: narrowed.join(',') } : plan.env, target };
}

/**
 * The reports of a run interrupted before vitest wrote any (before it started, or it had to be killed),
 * written into its folder: what stopped it, and no test.
 */
async function interruptedWithoutReports(staging: string, stop: AbortSignal): Promise<RunSummary> {
  // The report writers are loaded only for such a run (a run that starts writes its reports from vitest).
  const [{ writeReports }, { closingLines }] = await Promise.all([import('../report/report-files.ts'), import('../report/text.ts')]);
  const summary = interruptedSummary({ by: String(stop.reason), at: new Date().toISOString() });
  writeReports(staging, summary);
  console.error(`partner-conformance run: the run was interrupted (${String(stop.reason)}) before it could report`);
  console.log(closingLines(summary).join('\n'));
  return summary;
}

/** Runs vitest with its reports written into a folder of their own, then swaps them in whole; the exit code of the run. */
async function runAndPublish(vitestArgs: string[], runEnv: Record<string, string>, reportDir: string, stop: AbortSignal): Promise<number> {
  // The last run's reports stay until this run's are whole.
  const staging = makeStagingFolder(reportDir);
  try {
    const vitestCode = stop.aborted ? 2 : await runVitest(vitestArgs, { ...runEnv, CONFORMANCE_REPORT_DIR: staging }, stop);
    const summary = summaryIn(staging) ?? (stop.aborted ? await interruptedWithoutReports(staging, stop) : undefined);
    // A blob (shard) run writes no summary: its merge does. Anything else without a summary is a tool failure.
    if (!summary) {
      if (vitestCode === 0) return 0;
      console.error(`partner-conformance run: the run wrote no report; the reports in ${reportDir} are the last run's, left as they were`);
      return 2;
    }
    try {
      publishReports(staging, reportDir);
    } catch (error) {
      console.error(
        `partner-conformance run: the reports could not be put in ${reportDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the last run's are left as they were`,
      );
      return 2;
    }
    console.log(reportFilesLine(reportDir));
    return exitCodeOf(summary);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export const runCommand: Command = {
  name: 'run',
  summary:
    'Runs the conformance suite against a target (default: the embedded sandbox, started on free loopback ports) and writes junit.xml, conformance.json and conformance.md.',
  usage: 'partner-conformance run [options] [vitest options and files]',
  options: [
    { flag: '--target', value: 'FILE', meaning: 'the target file (default: CONFORMANCE_TARGET, else the embedded sandbox)' },
    {
      flag: '--waivers',
      value: 'FILE',
      meaning:
        "known failures accepted for a time (default: CONFORMANCE_WAIVERS, else the target file's waivers: key, else waivers.yaml beside it)",
    },
    {
      flag: '--areas',
      value: 'A,B',
      meaning: 'only these areas of the target file: speech, identity, invest, insurance, business (CONFORMANCE_AREAS)',
    },
    {
      flag: '--depth',
      value: 'D',
      meaning: `quick | standard | nightly: ${Object.entries(DEPTHS)
        .map(([d, n]) => `${d} ${n}`)
        .join(', ')} runs per property, and what scales with them (CONFORMANCE_DEPTH)`,
    },
    {
      flag: '--seed',
      value: 'N',
      meaning: 'the property-test seed (CONFORMANCE_SEED; default fixed in CI, random otherwise; always printed)',
    },
    {
      flag: '--grep',
      value: 'TEXT',
      meaning: 'only tests whose title matches (a requirement id such as INS-LIM-002, or words of the title; a regular expression)',
    },
    {
      flag: '--only-failed',
      meaning:
        "rerun the tests that failed (or ended in a tool error) in the last run (--from, default --reports) against that run's target, with its seed and runs per property; another target is refused",
    },
    {
      flag: '--from',
      value: 'DIR',
      meaning: 'with --only-failed: the report folder (or conformance.json) of the run whose failures to rerun',
    },
    {
      flag: '--shard',
      value: 'i/n',
      meaning: 'run the i-th of n deterministic parts of the suite, at 1/n of every documented rate limit; merge the parts with `merge`',
    },
    { flag: '--reports', value: 'DIR', meaning: 'where reports go (default: CONFORMANCE_REPORT_DIR, else reports/)' },
    {
      flag: '--progress',
      meaning: 'print progress (tests done of total, current area, failures so far) even in CI (CONFORMANCE_PROGRESS=1)',
    },
  ],
  async main(argv) {
    // From here on a signal (or npm's end) stops the run in order, with reports, rather than the process at once.
    const stop = interruption();
    let plan: RunPlan;
    try {
      plan = await planRun(argv, process.env);
    } catch (error) {
      console.error(`partner-conformance run: ${(error as Error).message}`);
      return 2;
    }
    const { vitestArgs, reportDir, onlyFailed } = plan;
    const unknown = await unknownRunOption(plan.passThrough);
    if (unknown) {
      console.error(`partner-conformance run: ${unknown}`);
      return 2;
    }
    // A rerun of nothing writes nothing, not even its folder: a later diff finds no rerun and calls nothing flaky.
    if (onlyFailed && !onlyFailed.vitestArgs.length) {
      console.log('nothing to rerun: no test failed in the last run');
      return 0;
    }
    // Before anything is written there: a folder that cannot be made would leave the run with no report.
    const dirProblem = reportDirProblem(reportDir);
    if (dirProblem) {
      console.error(
        `partner-conformance run: SETTING_INVALID: ${plan.namedBy.CONFORMANCE_REPORT_DIR ?? (variableOf('CONFORMANCE_REPORT_DIR') ? 'CONFORMANCE_REPORT_DIR' : 'the report folder')}: ${dirProblem}; the run did not start and wrote no report`,
      );
      return 2;
    }
    let selection: { env: Record<string, string>; target: Target | undefined };
    try {
      selection = await checkedSelection(plan);
    } catch (error) {
      const code = error instanceof ToolError ? error.code : 'TARGET_FILE_INVALID';
      return refuse(reportDir, { message: error instanceof ToolError ? error.message : `${code}: ${(error as Error).message}` });
    }
    if (onlyFailed) {
      const check = (await import('./only-failed.ts')).rerunTargetCheck(onlyFailed, selection.target);
      if (check && 'refuse' in check) {
        console.error(`partner-conformance run: ${check.refuse}; the run did not start and wrote no report`);
        return 2;
      }
      if (check) console.log(`notice: ${check.notice}`);
    }
    return runAndPublish(vitestArgs, selection.env, reportDir, stop);
  },
};
