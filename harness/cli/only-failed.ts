/**
 * `run --only-failed [--from DIR]`: a rerun of the tests that failed (or ended in a tool error) in an
 * earlier run, made to say whether they fail again. It means that only against the same target, with
 * the same cases: it takes DIR's seed and runs per property (unless the command line gives them) and
 * DIR's target: its target file (found again beside the suite, where a CI job of the same repository has
 * it) or, for the embedded sandbox, one started with the same faults. A target the user names that is not
 * DIR's is refused, naming both: rerun against another target, a failure "passes" and is called flaky.
 */
import { existsSync } from 'node:fs';
import { readSummary } from '../report/merge.ts';
import type { RunSummary, TargetRecord } from '../report/records.ts';
import { describeTarget, recordedTargetFile, targetDifference, targetRecord } from '../report/target-identity.ts';
import type { Target } from '../config/target.ts';
import { PROJECT_ROOT } from './vitest-process.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface OnlyFailed {
  /** The run whose failures are rerun. */
  summary: RunSummary;
  from: string;
  /** The rerun's environment: DIR's target, seed and runs, where the command line does not say otherwise. */
  env: Record<string, string>;
  /** The failed tests' files and a name pattern of exactly their titles; empty when nothing failed. */
  vitestArgs: string[];
}

/**
 * What a rerun of `from`'s failures runs, and against what. `given` is what the command line and the
 * environment name: the target file, the sandbox faults, whether the seed and the depth were given.
 * Throws when DIR's target cannot be taken (its file is not here) or another one is named.
 */
export function planOnlyFailed(
  from: string,
  given: { targetFile?: string; sandboxFaults: string[]; seed: boolean; depth: boolean },
): OnlyFailed {
  const summary = readSummary(from);
  const failed = summary.tests.filter((t) => t.verdict === 'failed' || t.verdict === 'error');
  if (!failed.length) return { summary, from, env: {}, vitestArgs: [] };
  // The same cases as the run that failed: its seed and its runs per property, unless the command line gives them.
  const env: Record<string, string> = {
    ...(!given.seed && summary.seed !== undefined ? { CONFORMANCE_SEED: String(summary.seed) } : {}),
    ...(!given.depth && summary.runs !== undefined ? { CONFORMANCE_RUNS: String(summary.runs) } : {}),
    ...rerunTarget(from, summary.target, given),
  };
  const vitestArgs = [
    ...new Set(failed.map((t) => t.file)),
    '--testNamePattern',
    `(?:${[...new Set(failed.map((t) => escapeRegExp(t.title)))].join('|')})$`,
  ];
  return { summary, from, env, vitestArgs };
}

/** The one line a refused rerun prints: DIR's target, what the run would check instead, what to do. */
const refusal = (from: string, record: TargetRecord | undefined, instead: string, todo: string) =>
  new Error(
    `--only-failed: ${from} checked ${describeTarget(record)}; ${instead}: a rerun of its failures goes to the target that failed them; ${todo}`,
  );

/** The environment that points the rerun at DIR's target, where the user named none. */
function rerunTarget(
  from: string,
  record: TargetRecord | undefined,
  given: { targetFile?: string; sandboxFaults: string[] },
): Record<string, string> {
  if (record?.embeddedSandbox) {
    if (given.targetFile)
      throw refusal(from, record, `this run names target file ${given.targetFile}`, 'leave out --target and CONFORMANCE_TARGET');
    const faults = record.embeddedSandbox.faults;
    if (given.sandboxFaults.length && [...given.sandboxFaults].sort().join(',') !== faults.join(','))
      throw refusal(from, record, `CONFORMANCE_SANDBOX_FAULTS names ${given.sandboxFaults.join(', ')}`, 'leave it out');
    return { CONFORMANCE_SANDBOX_FAULTS: faults.join(',') };
  }
  if (given.targetFile) return {};
  const file = record && recordedTargetFile(record, PROJECT_ROOT);
  if (file && existsSync(file)) return { CONFORMANCE_TARGET: file };
  if (file) throw refusal(from, record, `its file is not at ${file}`, 'give it with --target (or CONFORMANCE_TARGET)');
  // A summary of an earlier version names no file: only the embedded sandbox can be taken from it, by its name.
  if (record?.kind === 'sandbox' && record.name === 'embedded-sandbox' && !given.sandboxFaults.length) return {};
  throw refusal(from, record, 'its summary does not say where its target file is (an earlier version wrote it)', 'give it with --target');
}

/**
 * Whether the rerun's target file, as loaded, is DIR's: a refusal naming both when it is not, a notice
 * when an earlier version's summary lets only the name and kind be compared. Checked once the file is
 * read, since the services' URLs identify it; the embedded sandbox was settled before (its faults).
 */
export function rerunTargetCheck(plan: OnlyFailed, target: Target | undefined): { refuse: string } | { notice: string } | undefined {
  if (!target) return undefined;
  const record = plan.summary.target;
  const now = targetRecord(target, { file: target.file, root: PROJECT_ROOT });
  const difference = targetDifference(record, now);
  if (!difference) return undefined;
  if ('unsure' in difference) return { notice: `--only-failed: ${difference.unsure}` };
  return {
    refuse: refusal(
      plan.from,
      record,
      `this run's target is ${describeTarget(now)} (${difference.why})`,
      'give its target file, or none to take it from there',
    ).message,
  };
}
