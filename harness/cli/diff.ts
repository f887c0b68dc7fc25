/** `partner-conformance diff OLD NEW [--rerun DIR]`: what changed between two runs, by requirement. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { diffExitCode, diffRuns, renderDiff } from '../report/diff.ts';
import { readSummary } from '../report/merge.ts';
import { nothingCheckedReason, summaryOf, type RunSummary } from '../report/records.ts';
import { describeTarget, targetDifference } from '../report/target-identity.ts';
import { parseArgs } from './args.ts';
import type { Command } from './command.ts';
import { firstUnknown, unknownOptionMessage } from './unknown-options.ts';

const CLOSING: Record<ReturnType<typeof diffExitCode>, string> = {
  0: 'nothing new (exit 0)',
  1: 'new failures (exit 1)',
  2: 'new tool errors, or a run that checked nothing (exit 2)',
  3: 'nothing new but flaky failures, listed above (exit 3: a warning)',
};

/** Whether a path is a summary, or a folder that holds one. */
const hasSummary = (path: string) => existsSync(path) && (!statSync(path).isDirectory() || existsSync(join(path, 'conformance.json')));

/** What to say about OLD and NEW having checked different targets: a comparison across targets is no night-to-night news. */
function targetNotes(older: RunSummary, newer: RunSummary): string[] {
  const difference = targetDifference(older.target, newer.target);
  if (!difference) return [];
  if ('unsure' in difference) return [`note: ${difference.unsure}`];
  return [
    `WARNING: OLD and NEW checked different targets (${difference.why}): OLD ${describeTarget(older.target)}, NEW ${describeTarget(newer.target)}; what changed may be the target, not the night`,
  ];
}

/** A rerun of another target says nothing about NEW's failures: refused, never read as flaky. */
function rerunProblem(newer: RunSummary, rerun: RunSummary): string | undefined {
  const difference = targetDifference(newer.target, rerun.target);
  if (!difference || 'unsure' in difference) return undefined;
  return `the rerun checked ${describeTarget(rerun.target)} and NEW ${describeTarget(newer.target)} (${difference.why}): a rerun of another target cannot tell a flaky failure from a broken one; rerun with \`run --only-failed --from NEW\`, which takes NEW's target`;
}

export const diffCommand: Command = {
  name: 'diff',
  summary:
    'Compares two runs (conformance.json files or report folders): new failures, fixed, still failing, newly skipped, new tool errors, flaky; exit 1 on new failures, 2 on new tool errors or a run that checked nothing, 3 when flaky failures are the only news.',
  usage: 'partner-conformance diff OLD NEW [--rerun DIR]',
  options: [
    {
      flag: '--rerun',
      value: 'DIR',
      meaning:
        "an immediate rerun of NEW's failures against NEW's target with the same seed (run --only-failed): failures it passed are reported as flaky; a rerun of another target is refused",
    },
  ],
  async main(argv) {
    try {
      const args = parseArgs(argv, { values: ['--rerun'], switches: [] });
      const unknown = firstUnknown(args.rest, []);
      if (unknown) throw new Error(unknownOptionMessage(unknown, ['--rerun']));
      if (args.rest.length !== 2) throw new Error('give two runs: OLD NEW (conformance.json files or report folders)');
      const [older, newer] = args.rest;
      const lines: string[] = [];
      let rerun: string | undefined = args.values['--rerun'];
      if (rerun && !hasSummary(rerun)) {
        // `run --only-failed` writes nothing when nothing failed, and a rerun that did not finish leaves no
        // summary: either way there is nothing to call flaky, and NEW's failures are judged as they are.
        lines.push(`no rerun report at ${rerun}: nothing was rerun, so no failure is called flaky`);
        rerun = undefined;
      }
      // The first night has nothing to compare with: every failure of NEW is new.
      const before = hasSummary(older) ? readSummary(older) : undefined;
      if (!before) lines.push(`no earlier run at ${older}: every failure of NEW counts as new`);
      const now = readSummary(newer);
      const again = rerun ? readSummary(rerun) : undefined;
      const refused = again && rerunProblem(now, again);
      if (refused) throw new Error(refused);
      if (before) lines.push(...targetNotes(before, now));
      if (now.status === 'errored') lines.push(`NEW did not start: ${now.error?.message ?? 'no reason recorded'}`);
      const nothing = nothingCheckedReason(now);
      if (nothing) lines.push(`NEW: ${nothing}`);
      const diff = diffRuns(before ?? summaryOf([], {}), now, again);
      const code = diffExitCode(diff, now);
      console.log(`${renderDiff(diff, { older, newer, rerun }, lines)}\nnight: ${CLOSING[code]}`);
      return code;
    } catch (error) {
      console.error(`partner-conformance diff: ${(error as Error).message}`);
      return 2;
    }
  },
};
