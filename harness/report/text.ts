/**
 * The console summary and conformance.md, from the run's records. Failures come first and whole (the
 * console caps one failure at `MAX_FAILURE_LINES` and says what it cut; the files never cut), each with
 * what it rests on (the spec's words, or our reading, said to be ours: requirement-basis.ts), then tool
 * errors by code, policy warnings, waived failures with their waiver, the waivers that expired or went
 * unused, inconclusive and skipped tests by reason; the closing lines last. Whatever a target or a file
 * controls is printed escaped (printable.ts): control characters are shown, never obeyed, and a title,
 * a name or a reason stays on its line.
 *   conformance: N passed, N failed, N skipped
 *   tool errors: N (CODE n, …)          when there are any
 *   warnings: N policy                  when there are any
 *   waived: N (FILE)                    when there are any
 */
import { ERROR_CODES } from '../errors.ts';
import { AREAS } from '../areas.ts';
import { printable, printableLine } from '../text/printable.ts';
import { runCoverage } from './coverage.ts';
import { bodyOf } from './message.ts';
import { interruptionOf, nothingCheckedReason, type RunSummary, type TestRecord, type WaiverUse } from './records.ts';
import { basisLines, basisOf, type Basis } from './requirement-basis.ts';
import { describeWaiver } from './waivers.ts';

export const MAX_FAILURE_LINES = 40;
/** Titles the console lists per skip reason; conformance.md lists every one. */
const CONSOLE_TITLES_PER_REASON = 8;

const sourceTag = (t: TestRecord) => (t.source ? `[${t.source}]` : '');

function indent(text: string, prefix: string, maxLines?: number): string[] {
  const lines = text.split('\n');
  const shown = maxLines !== undefined && lines.length > maxLines ? lines.slice(0, maxLines) : lines;
  const out = shown.map((l) => `${prefix}${l}`);
  if (shown.length < lines.length)
    out.push(
      `${prefix}… ${lines.length - shown.length} more line(s) of this failure cut here; the whole text is in conformance.md and junit.xml`,
    );
  return out;
}

/** What the test's verdict rests on, from the requirements the summary carries. */
const basisOfTest = (summary: RunSummary, t: TestRecord): Basis | undefined =>
  t.requirement ? basisOf(summary.requirements?.[t.requirement]) : undefined;

/** One line of the summary about a test: its title, escaped and kept on the line. */
const line = (text: string) => printableLine(text);

function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

/** Defects first, then requirements, then tests: "defects: 1 (2 requirements failed; 2 tests failed, 24 inconclusive that depend on them)". */
export function defectsLine(summary: RunSummary): string | undefined {
  const groups = summary.rootCauses;
  if (!groups.length) return undefined;
  const dependent = groups.reduce((n, g) => n + (g.dependent ?? 0), 0);
  const requirements = summary.counts.failedRequirements ?? new Set(groups.map((g) => g.requirement)).size;
  return `defects: ${groups.length} (${requirements} requirement(s) failed; ${summary.counts.contractFailures} test(s) failed${dependent ? `, ${dependent} inconclusive that depend on them` : ''})`;
}

export function closingLines(summary: RunSummary): string[] {
  const c = summary.counts;
  const defects = defectsLine(summary);
  const lines = [...(defects ? [defects] : []), `conformance: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`];
  const codes = Object.entries(summary.toolErrorsByCode);
  if (c.toolErrors > 0) lines.push(`tool errors: ${c.toolErrors} (${codes.map(([code, n]) => `${code} ${n}`).join(', ')})`);
  if (c.warnings > 0) lines.push(`warnings: ${c.warnings} policy`);
  if (c.waived > 0) lines.push(`waived: ${c.waived} (${line(summary.waivers?.file ?? 'waiver file')}; not passes)`);
  const interrupted = interruptionOf(summary);
  if (interrupted) lines.push(line(interrupted));
  return lines;
}

/** Waivers that need someone's attention: expired (their failures fail again) and unused (they waive nothing). */
function waiverNotices(summary: RunSummary): string[] {
  const lines: string[] = [];
  const list = (status: WaiverUse['status']) => summary.waivers?.uses.filter((u) => u.status === status) ?? [];
  for (const u of list('expired'))
    lines.push(
      `  ! expired, no longer waives${u.tests.length ? ` (${u.tests.length} failure(s) it matched fail again)` : ''}: ${describeWaiver(u)}`,
    );
  for (const u of list('unused')) lines.push(`  ? unused, matched no failure: ${describeWaiver(u)}`);
  return lines.length ? [`waivers of ${summary.waivers!.file} to look at:`, ...lines] : [];
}

/** "2 tests failed, 24 inconclusive that depend on it". */
function touched(g: RunSummary['rootCauses'][number]): string {
  const failed = g.failed ?? g.tests.length;
  const dependent = g.dependent ?? 0;
  return `${failed} test(s) failed${dependent ? `, ${dependent} inconclusive that depend on it` : ''}`;
}

export function renderText(summary: RunSummary): string {
  const lines: string[] = ['', '── conformance summary ──'];
  if (summary.status === 'errored') {
    lines.push(`the run could not start: ${line(summary.error?.message ?? 'unknown error')}`);
    lines.push(...closingLines(summary));
    return lines.join('\n');
  }
  if (summary.target)
    lines.push(
      `target: ${line(summary.target.name)} (kind ${line(summary.target.kind)}); seed ${summary.seed}; ${summary.runs} runs per property${summary.paceShare !== undefined && summary.paceShare < 1 ? `; paced at ${+summary.paceShare.toFixed(4)} of every documented limit (this shard's share)` : ''}`,
    );
  if (summary.mergedFrom)
    lines.push(`merged from ${summary.mergedFrom.length} shard report(s): ${summary.mergedFrom.map(line).join(', ')}`);
  const of = (v: TestRecord['verdict']) => summary.tests.filter((t) => t.verdict === v);
  if (summary.rootCauses.length) {
    lines.push(`defects (${summary.rootCauses.length}): each one root cause, with the tests it touched; fixing it may fix them all`);
    for (const g of summary.rootCauses) lines.push(`  ✗ ${line(g.about)}`, `      ${touched(g)}`);
  }
  const basis = (t: TestRecord) => basisLines(basisOfTest(summary, t)).map((l) => `      ${l}`);
  const failed = of('failed');
  if (failed.length) {
    lines.push(`failed (${failed.length}):`);
    for (const t of failed) {
      lines.push(`  ✗ ${line(t.title)} ${sourceTag(t)}  [${line(t.file)}]`);
      if (t.waiverExpired && t.waiver) lines.push(`      (its ${line(describeWaiver(t.waiver))} has expired)`);
      lines.push(...basis(t));
      lines.push(...indent(bodyOf(t, t.message), '      ', MAX_FAILURE_LINES));
    }
  }
  const errors = of('error');
  if (errors.length) {
    lines.push(`tool errors (${errors.length}): the suite could not reach a verdict; these are not contract results`);
    for (const [code, list] of byKey(errors, (t) => t.code ?? 'SUITE_ERROR')) {
      lines.push(`  ${code} (${list.length}): ${ERROR_CODES[code as keyof typeof ERROR_CODES] ?? ''}`);
      for (const [message, same] of byKey(list, (t) => bodyOf(t, t.message).split('\n')[0])) {
        lines.push(`    ${line(message)}`);
        for (const t of same.slice(0, CONSOLE_TITLES_PER_REASON)) lines.push(`      ${line(t.title)}`);
        if (same.length > CONSOLE_TITLES_PER_REASON)
          lines.push(`      … and ${same.length - CONSOLE_TITLES_PER_REASON} more (every one in conformance.md)`);
      }
    }
  }
  const warnings = of('warning');
  if (warnings.length) {
    lines.push(
      `warnings (${warnings.length}): policy requirements (our reading, not the spec's words) that failed; strictPolicy: true makes them failures`,
    );
    for (const t of warnings) {
      lines.push(`  ! ${line(t.title)}`);
      lines.push(...basis(t));
      lines.push(...indent(bodyOf(t, t.warning), '      ', MAX_FAILURE_LINES));
    }
  }
  const waived = of('waived');
  if (waived.length) {
    lines.push(
      `waived (${waived.length}): contract failures a waiver in force accepts for now (not passes; the whole failure is in conformance.md):`,
    );
    for (const t of waived) lines.push(`  ~ ${line(t.title)}`, `      ${line(describeWaiver(t.waiver!))}`);
  }
  lines.push(...waiverNotices(summary).map(line));
  for (const verdict of ['inconclusive', 'skipped'] as const) {
    const list = of(verdict);
    if (!list.length) continue;
    lines.push(
      verdict === 'inconclusive'
        ? `inconclusive (${list.length}): ran, but the target gave no evidence either way, by reason:`
        : `skipped (${list.length}), by reason:`,
    );
    for (const [reason, same] of byKey(list, (t) => t.skipReason ?? 'no reason given')) {
      lines.push(`  - ${line(reason)} (${same.length}):`);
      for (const t of same.slice(0, CONSOLE_TITLES_PER_REASON)) lines.push(`      ${line(t.title)}`);
      if (same.length > CONSOLE_TITLES_PER_REASON)
        lines.push(`      … and ${same.length - CONSOLE_TITLES_PER_REASON} more (every one in conformance.md)`);
    }
  }
  for (const e of summary.unhandledErrors)
    lines.push(...indent(e, '    ').map((l, i) => (i === 0 ? `unhandled error: ${l.trimStart()}` : l)));
  const nothing = nothingCheckedReason(summary);
  if (nothing) lines.push(nothing);
  lines.push(...closingLines(summary));
  // A message may span lines (each printed indented under its test); none may carry a control character.
  return printable(lines.join('\n'));
}

/** What a verdict rests on, as conformance.md quotes it. */
function basisMarkdown(basis: Basis | undefined): string {
  if (!basis) return '';
  const quote = (q: string) => `> "${line(q)}"`;
  const reading = basis.reading ? [`> ${basis.ours ? 'Our reading' : 'Our reading of them'}: ${line(basis.reading)}`] : [];
  const lines = [
    `> **Basis:** ${basis.heading}:`,
    ...(basis.ours
      ? [...reading, ...(basis.quotes.length ? ["> It reads the spec's words:", ...basis.quotes.map(quote)] : [])]
      : [...basis.quotes.map(quote), ...reading]),
  ];
  return `${lines.join('\n>\n')}\n\n`;
}

export function renderMarkdown(summary: RunSummary): string {
  const c = summary.counts;
  const out = ['# Conformance report', ''];
  if (summary.status === 'errored') {
    out.push(`The run could not start: **${summary.error?.code}**: ${line(summary.error?.message ?? '')}`, '');
    return printable(out.join('\n'));
  }
  const interrupted = interruptionOf(summary);
  if (interrupted) out.push(`**${line(`${interrupted[0].toUpperCase()}${interrupted.slice(1)}`)}.**`, '');
  out.push(
    `Target **${line(summary.target?.name ?? '?')}** (kind ${line(summary.target?.kind ?? '?')}, vendor conventions ${summary.target?.vendorConventions ? 'on' : 'off'}, policy ${summary.target?.strictPolicy ? 'strict' : 'warnings'}), generated ${summary.generatedAt}, seed ${summary.seed}.`,
    '',
    ...(summary.rootCauses.length ? [`**${defectsLine(summary)}**`, ''] : []),
    `**${c.passed} passed, ${c.failed} failed (${c.contractFailures} contract failures, ${c.toolErrors} tool errors), ${c.skipped} skipped (${c.inconclusive} inconclusive)**, ${c.warnings} policy warnings, ${c.waived} waived, of ${c.total}.`,
    '',
  );
  for (const d of summary.documents ?? [])
    out.push(
      `Fetched and judged: ${line(d.url)}, sha256 \`${d.sha256}\` (${d.bytes} bytes)${d.withheld ? `; withheld: ${d.withheld}` : d.note ? `; ${d.note}` : ''}.`,
      '',
    );
  const nothing = nothingCheckedReason(summary);
  if (nothing) out.push(`**${nothing}**`, '');
  out.push(...coverageMarkdown(summary));
  const fence = (text: string | undefined) => `\`\`\`\n${(text ?? '').replace(/```/g, "'''")}\n\`\`\``;
  const section = (title: string, tests: readonly TestRecord[], body: (t: TestRecord) => string) => {
    if (!tests.length) return;
    out.push(`## ${title} (${tests.length})`, '');
    for (const t of tests) out.push(body(t));
    out.push('');
  };
  const of = (v: TestRecord['verdict']) => summary.tests.filter((t) => t.verdict === v);
  const evidence = (t: TestRecord) =>
    t.evidence?.length ? `\n\nEvidence: ${t.evidence.map((ref) => (t.controls?.includes(ref) ? `${ref} (control)` : ref)).join(', ')}` : '';
  if (summary.rootCauses.length) {
    out.push(
      `## Defects (${summary.rootCauses.length})`,
      '',
      'Each defect is one root cause: one expectation of one requirement broken by the target. It lists every test it touched: those that failed on it, and those that take its requirement as given and so ended inconclusive (DEPENDENCY_FAILED). Fixing the defect may fix them all.',
      '',
    );
    for (const g of summary.rootCauses) out.push(`- **${line(g.about)}**: ${touched(g)}`, ...g.tests.map((title) => `  - ${line(title)}`));
    out.push('');
  }
  const basis = (t: TestRecord) => basisMarkdown(basisOfTest(summary, t));
  section(
    'Contract failures',
    of('failed'),
    (t) =>
      `### ${line(t.title)}\n\nSource: ${t.source ?? '?'} · file ${line(t.file)}${t.rootCause ? ` · root cause: ${line(t.rootCause)}` : ''}${evidence(t)}\n\n${basis(t)}${fence(t.message)}\n`,
  );

  section('Tool errors', of('error'), (t) => `### ${t.code}: ${line(t.title)}${evidence(t)}\n\n${fence(t.message)}\n`);
  section('Policy warnings', of('warning'), (t) => `### ${line(t.title)}${evidence(t)}\n\n${basis(t)}${fence(t.warning)}\n`);
  section(
    'Waived failures',
    of('waived'),
    (t) => `### ${line(t.title)}\n\nSource: ${t.source ?? '?'} · ${line(describeWaiver(t.waiver!))}\n\n${basis(t)}${fence(t.message)}\n`,
  );
  if (summary.waivers) {
    out.push(
      `## Waivers (${line(summary.waivers.file)})`,
      '',
      '| # | status | requirement | rows | owner | until | reason | failures matched |',
      '|---|---|---|---|---|---|---|---|',
    );
    const cell = (text: string) => line(text).replace(/\|/g, '\\|');
    for (const u of summary.waivers.uses)
      out.push(
        `| ${u.entry} | ${u.status} | ${u.requirement} | ${cell(u.row ?? 'all')} | ${cell(u.owner)} | ${u.expires} | ${cell(u.reason)} | ${u.tests.length} |`,
      );
    out.push('');
  }
  section('Inconclusive', of('inconclusive'), (t) => `- ${line(t.title)} [${t.source ?? '?'}]: ${line(t.skipReason ?? '')}`);
  section('Skipped', of('skipped'), (t) => `- ${line(t.title)} [${t.source ?? '?'}]: ${line(t.skipReason ?? '')}`);
  section('Passed', of('passed'), (t) => `- ${line(t.title)} [${t.source ?? '?'}]`);
  out.push(...requirementsMarkdown(summary));
  return printable(out.join('\n'));
}

/** Every requirement the run judged, once, with the spec's words it rests on (or our reading, said to be ours). */
function requirementsMarkdown(summary: RunSummary): string[] {
  const entries = Object.entries(summary.requirements ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (!entries.length) return [];
  const out = [
    `## What each requirement rests on (${entries.length})`,
    '',
    "The requirements this run judged, each with the spec's words it rests on, or, where the spec has no words for it, our reading, said to be ours.",
    '',
  ];
  for (const [id, entry] of entries)
    out.push(`### ${id} §${entry.section} [${entry.source}]`, '', line(entry.text), '', basisMarkdown(basisOf(entry)));
  return out;
}

/**
 * Coverage of the spec by section (specs/traceability.yaml): its testable statements, how many have
 * requirements, how many cannot be tested from outside or still wait for a check, and how many passed
 * (every test of every requirement of the statement passed in this run).
 */
export function coverageMarkdown(summary: RunSummary): string[] {
  let coverage: ReturnType<typeof runCoverage>;
  try {
    coverage = runCoverage(summary.tests, summary.areas);
  } catch (error) {
    return [`Coverage by section is not available: ${(error as Error).message}`, ''];
  }
  const scope = AREAS.every((a) => coverage.areas.includes(a))
    ? ''
    : ` Only the sections and statements of the areas this run checked (${coverage.areas.join(', ')}).`;
  const out = [
    '## Coverage of the spec by section',
    '',
    `Statements of the spec (specs/traceability.yaml), those checked by requirements, not testable from outside, still pending a check, and checked statements whose every test passed in this run.${scope}`,
    '',
  ];
  out.push('| section | statements | checked | not testable | pending | passed |', '|---|---|---|---|---|---|');
  for (const r of [...coverage.rows, coverage.total])
    out.push(
      `| ${r.section === 'all' ? '**all**' : r.section} | ${r.statements} | ${r.checked} | ${r.untestable} | ${r.pending} | ${r.passed} |`,
    );
  out.push('');
  return out;
}
