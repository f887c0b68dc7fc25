/**
 * Run-to-run comparison: what changed between an older and a newer run, test by test (a test is known by
 * its title, which starts with its requirement id and names its row), grouped by requirement. A failure
 * of the newer run that passed on an immediate rerun with the same seed is flaky: listed, never hidden,
 * and not counted as a new failure.
 */
import { nothingCheckedReason, type RunSummary, type TestRecord } from './records.ts';

export interface RunDiff {
  newFailures: TestRecord[];
  newToolErrors: TestRecord[];
  fixed: TestRecord[];
  stillFailing: TestRecord[];
  newlySkipped: TestRecord[];
  flaky: TestRecord[];
}

const failing = (t: TestRecord | undefined) => t?.verdict === 'failed';
const broken = (t: TestRecord | undefined) => t?.verdict === 'failed' || t?.verdict === 'error';
const notRun = (t: TestRecord | undefined) => t?.verdict === 'skipped' || t?.verdict === 'inconclusive';

/** Tests by title; a title that occurs twice in one run gets a #2, #3 … so that nothing is merged away. */
function byTitle(summary: RunSummary): Map<string, TestRecord> {
  const map = new Map<string, TestRecord>();
  for (const t of summary.tests) {
    let key = t.title;
    for (let n = 2; map.has(key); n++) key = `${t.title} #${n}`;
    map.set(key, t);
  }
  return map;
}

export function diffRuns(older: RunSummary, newer: RunSummary, rerun?: RunSummary): RunDiff {
  const before = byTitle(older);
  const again = rerun ? byTitle(rerun) : new Map<string, TestRecord>();
  const out: RunDiff = { newFailures: [], newToolErrors: [], fixed: [], stillFailing: [], newlySkipped: [], flaky: [] };
  for (const [key, now] of byTitle(newer)) {
    const then = before.get(key);
    const passedOnRerun = again.get(key)?.verdict === 'passed';
    if (broken(now) && passedOnRerun) out.flaky.push(now);
    else if (failing(now) && failing(then)) out.stillFailing.push(now);
    else if (failing(now)) out.newFailures.push(now);
    else if (now.verdict === 'error' && then?.verdict !== 'error') out.newToolErrors.push(now);
    // A waived failure that now passes is fixed too (its waiver can go).
    else if (now.verdict === 'passed' && (broken(then) || then?.verdict === 'waived')) out.fixed.push(now);
    else if (notRun(now) && then && !notRun(then)) out.newlySkipped.push(now);
  }
  return out;
}

/**
 * The one status of a night: 1 on a new (not flaky) contract failure; 2 on new tool errors, or when the
 * newer run did not start or checked nothing (no pass over nothing: a target down for two nights is no
 * green second night); 3 when the only news is flaky failures (listed, a warning, not a failure); else 0.
 */
export function diffExitCode(diff: RunDiff, newer: RunSummary): 0 | 1 | 2 | 3 {
  if (diff.newFailures.length) return 1;
  if (diff.newToolErrors.length || newer.status === 'errored' || nothingCheckedReason(newer)) return 2;
  return diff.flaky.length ? 3 : 0;
}

/** The diff in lines, by requirement; `notes` (what the comparison rests on) come right after the first line. */
export function renderDiff(diff: RunDiff, labels: { older: string; newer: string; rerun?: string }, notes: readonly string[] = []): string {
  const lines = [`partner-conformance diff: ${labels.older} → ${labels.newer}${labels.rerun ? ` (rerun ${labels.rerun})` : ''}`, ...notes];
  const section = (title: string, tests: TestRecord[], detail: (t: TestRecord) => string | undefined) => {
    lines.push(`${title}: ${tests.length}`);
    const byRequirement = new Map<string, TestRecord[]>();
    for (const t of tests)
      byRequirement.set(t.requirement ?? '(no requirement)', [...(byRequirement.get(t.requirement ?? '(no requirement)') ?? []), t]);
    for (const [id, list] of [...byRequirement].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${id} (${list.length})`);
      for (const t of list) {
        const more = detail(t);
        lines.push(`    ${t.title}${more ? `\n      ${more}` : ''}`);
      }
    }
  };
  const firstLine = (text?: string) =>
    (text ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(1, 3)
      .join(' / ') || undefined;
  section('new failures', diff.newFailures, (t) => firstLine(t.message));
  section('new tool errors', diff.newToolErrors, (t) => `${t.code}: ${(t.message ?? '').split('\n')[0]}`);
  section('flaky (failed, then passed on an immediate rerun with the same seed)', diff.flaky, (t) => firstLine(t.message));
  section('still failing', diff.stillFailing, () => undefined);
  section('fixed', diff.fixed, () => undefined);
  section('newly skipped', diff.newlySkipped, (t) => t.skipReason);
  return lines.join('\n');
}
