/** `partner-conformance diff OLD NEW [--rerun DIR]`: what changed between two runs, by requirement. */
import { existsSync } from 'node:fs';
import { diffExitCode, diffRuns, renderDiff } from '../report/diff.ts';
import { readSummary } from '../report/merge.ts';
import { parseArgs } from './args.ts';
import type { Command } from './command.ts';
import { firstUnknown, unknownOptionMessage } from './unknown-options.ts';

export const diffCommand: Command = {
  name: 'diff',
  summary:
    'Compares two runs (conformance.json files or report folders): new failures, fixed, still failing, newly skipped, new tool errors; exit 1 on new failures.',
  usage: 'partner-conformance diff OLD NEW [--rerun DIR]',
  options: [
    {
      flag: '--rerun',
      value: 'DIR',
      meaning: "an immediate rerun of NEW's failures with the same seed (run --only-failed): failures it passed are reported as flaky",
    },
  ],
  async main(argv) {
    try {
      const args = parseArgs(argv, { values: ['--rerun'], switches: [] });
      const unknown = firstUnknown(args.rest, []);
      if (unknown) throw new Error(unknownOptionMessage(unknown, ['--rerun']));
      if (args.rest.length !== 2) throw new Error('give two runs: OLD NEW (conformance.json files or report folders)');
      const [older, newer] = args.rest;
      let rerun: string | undefined = args.values['--rerun'];
      if (rerun && !existsSync(rerun)) {
        // `run --only-failed` writes nothing when nothing failed: then there is nothing to call flaky.
        console.log(`no rerun report at ${rerun}: nothing was rerun, so no failure is called flaky`);
        rerun = undefined;
      }
      const diff = diffRuns(readSummary(older), readSummary(newer), rerun ? readSummary(rerun) : undefined);
      console.log(renderDiff(diff, { older, newer, rerun }));
      return diffExitCode(diff);
    } catch (error) {
      console.error(`partner-conformance diff: ${(error as Error).message}`);
      return 2;
    }
  },
};
