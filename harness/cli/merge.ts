/** `partner-conformance merge DIR…`: one junit.xml, conformance.json, conformance.md and evidence from shard reports. */
import { resolve } from 'node:path';
import { mergeEvidence } from '../report/evidence.ts';
import { mergeSummaries, readSummary } from '../report/merge.ts';
import { reportFilesLine } from '../report/publish.ts';
import { exitCodeOf } from '../report/records.ts';
import { writeReportsWhole } from '../report/report-files.ts';
import { requirementEntries } from '../report/requirement-basis.ts';
import { renderText } from '../report/text.ts';
import { requirements } from '../spec/requirements.ts';
import { reportDirOf } from '../runner/settings.ts';
import { parseArgs } from './args.ts';
import type { Command } from './command.ts';
import { firstUnknown, unknownOptionMessage } from './unknown-options.ts';

export const mergeCommand: Command = {
  name: 'merge',
  summary:
    'Merges the reports of the shards of one run (--shard i/n) into one junit.xml, conformance.json, conformance.md, report.html, evidence (evidence/*.har) and allure-results/.',
  usage: 'partner-conformance merge DIR… [--reports DIR]',
  options: [{ flag: '--reports', value: 'DIR', meaning: 'where the merged reports go (default: CONFORMANCE_REPORT_DIR, else reports/)' }],
  async main(argv) {
    try {
      const args = parseArgs(argv, { values: ['--reports'], switches: [] });
      const unknown = firstUnknown(args.rest, []);
      if (unknown) throw new Error(unknownOptionMessage(unknown, ['--reports']));
      if (!args.rest.length) throw new Error('give the report folders (or conformance.json files) of the shards');
      const { parts, evidence, missing } = mergeEvidence(args.rest.map((path) => ({ path, summary: readSummary(path) })));
      for (const file of missing) console.log(`evidence not found, left out of the merge (its tests keep their verdicts): ${file}`);
      const merged = { ...mergeSummaries(parts), ...(evidence ? { evidence: evidence.index } : {}) };
      // The shards' summaries may come from an earlier version: what each requirement rests on is this version's.
      merged.requirements = requirementEntries(
        merged.tests.map((t) => t.requirement),
        requirements(),
      );
      const dir = resolve(args.values['--reports'] ?? reportDirOf());
      writeReportsWhole(dir, merged, evidence);
      console.log(renderText(merged));
      console.log(`merged: ${reportFilesLine(dir)}`);
      return exitCodeOf(merged);
    } catch (error) {
      console.error(`partner-conformance merge: ${(error as Error).message}`);
      return 2;
    }
  },
};
