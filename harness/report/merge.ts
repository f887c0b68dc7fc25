/**
 * Merging shard reports: the conformance.json of each shard (a folder or the file itself) into one
 * summary whose counts are those of the unsharded run. Shards of one run share the target and the seed;
 * a merge of shards that disagree on them is refused.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { settleDependencies } from './dependencies.ts';
import { describeTarget, targetDifference } from './target-identity.ts';
import { SUMMARY_FORMAT, summaryOf, type FetchedDocument, type RunSummary, type WaiverUse } from './records.ts';

const PREVIOUS_FORMAT = 'partner-conformance/summary@2';

/**
 * A summary@2 as a summary@3: its `state` (vitest's view, which counted a policy warning as passed)
 * goes, since the verdict says the same and more; its root-cause key names the cause as well.
 * It has no evidence.
 */
function fromPreviousFormat(summary: RunSummary): RunSummary {
  const tests = summary.tests.map((t) => {
    const { state: _state, ...rest } = t as typeof t & { state?: string };
    return rest.rootCause && !rest.rootCauseKey ? { ...rest, rootCauseKey: rest.rootCause } : rest;
  });
  return { ...summary, format: SUMMARY_FORMAT, tests, rootCauses: summary.rootCauses.map((g) => ({ ...g, about: g.about ?? g.key })) };
}

/** Reads a conformance.json (summary@3, or @2 of an earlier version), given it or the report folder that holds it. */
export function readSummary(path: string): RunSummary {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'conformance.json') : path;
  if (!existsSync(file)) throw new Error(`${file}: no such report (expected a conformance.json or a folder holding one)`);
  const summary = JSON.parse(readFileSync(file, 'utf8')) as RunSummary;
  if ((summary.format as string) === PREVIOUS_FORMAT) return fromPreviousFormat(summary);
  if (summary.format !== SUMMARY_FORMAT)
    throw new Error(
      `${file}: not a partner-conformance summary (format ${JSON.stringify(summary.format)}; this version reads ${SUMMARY_FORMAT} and ${PREVIOUS_FORMAT})`,
    );
  return summary;
}

/** The shards' uses of one waiver file as one: the failures each waiver matched in any shard. */
function mergeWaivers(parts: ReadonlyArray<{ summary: RunSummary }>): RunSummary['waivers'] {
  const withWaivers = parts.map((p) => p.summary.waivers).filter((w): w is NonNullable<RunSummary['waivers']> => !!w);
  if (!withWaivers.length) return undefined;
  const uses = new Map<number, WaiverUse>();
  for (const use of withWaivers.flatMap((w) => w.uses)) {
    const seen = uses.get(use.entry);
    const tests = [...(seen?.tests ?? []), ...use.tests];
    uses.set(use.entry, { ...use, tests, status: use.status === 'expired' ? 'expired' : tests.length ? 'applied' : 'unused' });
  }
  return { file: withWaivers[0].file, uses: [...uses.values()].sort((a, b) => a.entry - b.entry) };
}

const mergeDocuments = (parts: ReadonlyArray<{ summary: RunSummary }>): FetchedDocument[] => [
  ...new Map(parts.flatMap((p) => p.summary.documents ?? []).map((d) => [d.sha256, d])).values(),
];

export function mergeSummaries(parts: ReadonlyArray<{ path: string; summary: RunSummary }>): RunSummary {
  if (!parts.length) throw new Error('nothing to merge: give the report folders of the shards');
  const first = parts[0].summary;
  for (const { path, summary } of parts.slice(1)) {
    const difference = targetDifference(first.target, summary.target);
    if (difference && 'why' in difference)
      throw new Error(
        `${path}: target ${describeTarget(summary.target)} differs from ${describeTarget(first.target)} of ${parts[0].path} (${difference.why}): these are not shards of one run`,
      );
    if (summary.seed !== first.seed)
      throw new Error(
        `${path}: seed ${summary.seed} differs from ${first.seed} of ${parts[0].path}: shards of one run share the seed (give --seed)`,
      );
  }
  const errored = parts.find((p) => p.summary.status === 'errored');
  const merged = summaryOf(
    // A test that took a requirement as given is settled again over every shard: another shard may show that requirement failed.
    settleDependencies(parts.flatMap((p) => p.summary.tests)),
    {
      target: first.target,
      seed: first.seed,
      runs: first.runs,
      areas: [...new Set(parts.flatMap((p) => p.summary.areas ?? []))],
      paceShare: first.paceShare,
      startedAt: parts
        .map((p) => p.summary.startedAt)
        .filter((s): s is string => !!s)
        .sort()[0],
      mergedFrom: parts.map((p) => p.path),
      waivers: mergeWaivers(parts),
      documents: mergeDocuments(parts),
      unhandledErrors: parts.flatMap((p) => p.summary.unhandledErrors),
    },
  );
  if (errored) return { ...merged, status: 'errored', error: errored.summary.error };
  // One shard cut short makes the whole run partial.
  const interrupted = parts.find((p) => p.summary.status === 'interrupted');
  return interrupted ? { ...merged, status: 'interrupted', interruption: interrupted.summary.interruption } : merged;
}
