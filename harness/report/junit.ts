/**
 * junit.xml from the run's records: one <testsuite> per file, one <testcase> per test named by its own
 * title (`<ID> §<section> …`, so a CI filter on the id works). A contract failure is a <failure>, a tool
 * error an <error type="CODE">, each with its reason in one line as `message` (what was expected and
 * what came back; the tool error's first line); a skip or an inconclusive test <skipped message="CODE: reason">, a policy
 * warning a passed case with the warning in <system-out>, a waived failure <skipped message="waived: …">
 * with the failure in <system-out> (not passed, and not red while the waiver holds). Properties carry
 * requirement, source, verdict, what the verdict rests on (`quote`: the spec's words, or our reading,
 * said to be ours; also at the end of a failure's text) and the test's evidence (HAR entries,
 * evidence/<area>.har#e<n>).
 */
import { printable } from '../text/printable.ts';
import { reasonOf } from './message.ts';
import { interruptionOf, type RunSummary, type TestRecord } from './records.ts';
import { basisLine, basisLines, basisOf, type Basis } from './requirement-basis.ts';
import { describeWaiver } from './waivers.ts';

/**
 * Text as XML carries it. XML 1.0 forbids most control characters even when escaped, and the others
 * (ESC, the C1 controls, bidi overrides) would be obeyed by whoever prints the report: every one is
 * shown as an escape (printable.ts).
 */
export function escapeXml(text: string): string {
  return printable(text).replace(MARKUP, (ch) => ENTITIES[ch]);
}

const MARKUP = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

const firstLine = (text: string | undefined) => (text ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The basis in one property value, on one line (XML turns a line feed in an attribute into a space). */
const basisProperty = (basis: Basis | undefined) => (basis ? basisLine(basis) : undefined);

/** The failure's whole text, then what its verdict rests on. */
const withBasis = (text: string, basis: Basis | undefined) => (basis ? `${text}\n\n${basisLines(basis).join('\n')}` : text);

function testcase(t: TestRecord, summary: RunSummary): string {
  const basis = t.requirement ? basisOf(summary.requirements?.[t.requirement]) : undefined;
  const props = [
    ['requirement', t.requirement],
    ['source', t.source],
    ['section', t.section],
    ['quote', basisProperty(basis)],
    ['verdict', t.verdict],
    ['code', t.code],
    ['rootCause', t.rootCause],
    ['evidence', t.evidence?.join(' ')],
    ['controls', t.controls?.join(' ')],
  ].filter(([, v]) => v !== undefined);
  const lines = [
    `    <testcase classname="${escapeXml([t.file, ...t.suitePath].join(' > '))}" name="${escapeXml(t.title)}" time="${seconds(t.durationMs)}">`,
  ];
  lines.push(`      <properties>${props.map(([k, v]) => `<property name="${k}" value="${escapeXml(String(v))}"/>`).join('')}</properties>`);
  if (t.verdict === 'failed')
    lines.push(
      `      <failure type="contract" message="${escapeXml(reasonOf(t))}">${escapeXml(withBasis(`${t.message ?? ''}${t.waiverExpired && t.waiver ? `\nExpired: ${describeWaiver(t.waiver)}` : ''}`, basis))}</failure>`,
    );
  if (t.verdict === 'waived' && t.waiver) {
    lines.push(`      <skipped message="${escapeXml(`waived: ${describeWaiver(t.waiver)}`)}"/>`);
    lines.push(`      <system-out>${escapeXml(withBasis(`WAIVED contract failure: ${t.message ?? ''}`, basis))}</system-out>`);
  }
  // A tool error is no verdict on the requirement: its text is the tool's alone.
  if (t.verdict === 'error')
    lines.push(`      <error type="${t.code ?? 'SUITE_ERROR'}" message="${escapeXml(reasonOf(t))}">${escapeXml(t.message ?? '')}</error>`);
  if (t.verdict === 'skipped' || t.verdict === 'inconclusive')
    lines.push(`      <skipped message="${escapeXml(`${t.verdict === 'inconclusive' ? 'inconclusive: ' : ''}${t.skipReason ?? ''}`)}"/>`);
  if (t.verdict === 'warning')
    lines.push(`      <system-out>${escapeXml(withBasis(`WARNING (policy, not strict): ${t.warning ?? ''}`, basis))}</system-out>`);
  lines.push('    </testcase>');
  return lines.join('\n');
}

export function renderJunit(summary: RunSummary): string {
  const byFile = new Map<string, TestRecord[]>();
  for (const t of summary.tests) {
    const list = byFile.get(t.file);
    if (list) list.push(t);
    else byFile.set(t.file, [t]);
  }
  const count = (tests: readonly TestRecord[], ...verdicts: string[]) => tests.filter((t) => verdicts.includes(t.verdict)).length;
  const skipped = (tests: readonly TestRecord[]) => count(tests, 'skipped', 'inconclusive', 'waived');
  const time = (tests: readonly TestRecord[]) => seconds(tests.reduce((s, t) => s + t.durationMs, 0));
  const all = summary.tests;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  // A run that could not start, or was cut short, is one error of its own: a CI view never shows it green.
  const runError =
    summary.status === 'errored' && summary.error
      ? { name: 'the run could not start', ...summary.error }
      : summary.status === 'interrupted'
        ? { name: 'the run was interrupted', code: 'RUN_INTERRUPTED', message: interruptionOf(summary) ?? 'interrupted' }
        : undefined;
  out.push(
    `<testsuites name="partner-conformance" tests="${all.length}" failures="${count(all, 'failed')}" errors="${count(all, 'error') + (runError ? 1 : 0)}" skipped="${skipped(all)}" time="${time(all)}">`,
  );
  if (runError) {
    out.push(`  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0">`);
    out.push(`    <testcase classname="run" name="${runError.name}" time="0">`);
    out.push(
      `      <error type="${runError.code}" message="${escapeXml(firstLine(runError.message))}">${escapeXml(runError.message)}</error>`,
    );
    out.push('    </testcase>', '  </testsuite>');
  }
  for (const [file, tests] of byFile) {
    out.push(
      `  <testsuite name="${escapeXml(file)}" tests="${tests.length}" failures="${count(tests, 'failed')}" errors="${count(tests, 'error')}" skipped="${skipped(tests)}" time="${time(tests)}">`,
    );
    for (const t of tests) out.push(testcase(t, summary));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
