/**
 * Every report shows what a verdict rests on: the spec's words (the requirement's `quote` in
 * specs/requirements.yaml), or, for a requirement the spec does not state in words, our reading of it,
 * said to be ours: the console's failure block, conformance.md and .json, junit.xml (a property, and the
 * end of the failure's text) and report.html. junit's failure@message is the reason, not the test's title.
 * report.html comes with every run, its heading the run's outcome (a certification's is the pack's).
 */
import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../harness/certify/html/report-html.ts';
import { fileCounts, fileMark } from '../../harness/report/console-reporter.ts';
import { renderJunit } from '../../harness/report/junit.ts';
import { reasonOf } from '../../harness/report/message.ts';
import type { RunSummary, TestRecord } from '../../harness/report/records.ts';
import { requirementEntries } from '../../harness/report/requirement-basis.ts';
import { renderMarkdown, renderText } from '../../harness/report/text.ts';
import { quotesOf, requirement, requirements, titleOf } from '../../harness/spec/requirements.ts';
import { failedRecord, record, summary } from '../certify/_records.ts';

/** A run's summary as the reporter makes it: with the entries of the requirements its tests judged. */
function runSummary(tests: TestRecord[]): RunSummary {
  const s = summary(tests);
  return {
    ...s,
    areas: ['insurance'],
    requirements: requirementEntries(
      tests.map((t) => t.requirement),
      requirements(),
    ),
  };
}

const SPEC = 'INS-LIM-002';
const POLICY = 'INS-HDR-003';
const specQuotes = quotesOf(requirement(SPEC));
const policyReading = requirement(POLICY).reading!;

const run = () =>
  runSummary([
    failedRecord(SPEC, 'contractId of 129 characters is rejected with 400 or 422'),
    record(POLICY, {
      verdict: 'warning',
      warning: `${requirement(POLICY).text}\n  ✗ ${POLICY}\n    Expected: accepted with 201\n    Received: refused with 400`,
    }),
    record('INS-LIM-001'),
    record('INS-RSP-001', {
      verdict: 'error',
      code: 'TARGET_TIMEOUT',
      message: `${titleOf('INS-RSP-001')}\nTARGET_TIMEOUT: no answer within 15000 ms`,
    }),
  ]);

describe('what a verdict rests on, in every report', () => {
  it('the requirement of a spec failure has its quote, a policy one without quote its reading, said to be ours', () => {
    expect(specQuotes.length).toBeGreaterThan(0);
    expect(requirement(POLICY).quote).toBeUndefined();
    const s = run();
    expect(s.requirements?.[SPEC]).toMatchObject({ source: 'spec', section: '8', quote: specQuotes });
    expect(s.requirements?.[POLICY]).toMatchObject({ source: 'policy', reading: policyReading });
    expect(s.requirements?.[POLICY]).not.toHaveProperty('quote');
  });

  it('the console prints the quote in the failure block and the reading under the warning', () => {
    const text = renderText(run());
    const block = text.slice(text.indexOf(`✗ ${SPEC}`), text.indexOf('warnings ('));
    expect(block).toContain("Basis: the spec's words, §8:");
    for (const q of specQuotes) expect(block).toContain(`"${q}"`);
    const warning = text.slice(text.indexOf('warnings ('));
    expect(warning).toContain("Basis: a reading of ours (policy), not the spec's words, §4.4:");
    expect(warning).toContain(`Our reading: ${policyReading}`);
  });

  it('conformance.md quotes it under each failure and lists every judged requirement once with its words', () => {
    const md = renderMarkdown(run());
    const failure = md.slice(md.indexOf(`### ${SPEC}`));
    expect(failure).toContain("> **Basis:** the spec's words, §8:");
    for (const q of specQuotes) expect(failure).toContain(`> "${q}"`);
    const all = md.slice(md.indexOf('## What each requirement rests on (4)'));
    for (const id of [SPEC, POLICY, 'INS-LIM-001', 'INS-RSP-001']) expect(all).toContain(`### ${id} §`);
    expect(all).toContain("a reading of ours (policy), not the spec's words");
  });

  it('junit.xml carries it as a property and at the end of the failure, and its failure@message is the reason', () => {
    const xml = renderJunit(run());
    const property = /<property name="quote" value="([^"]*)"\/>/.exec(xml.slice(xml.indexOf(`name="${SPEC}`)))?.[1];
    expect(property).toMatch(/^the spec&apos;s words, §8: &quot;contractId 1 to 128 characters&quot;/);
    const failure = /<failure type="contract" message="([^"]*)">([^<]*)<\/failure>/.exec(xml)!;
    expect(failure[1]).toBe('expected rejected with one of 400, 422; received accepted with 201');
    expect(failure[2]).toMatch(/Basis: the spec&apos;s words, §8:\n {2}&quot;contractId 1 to 128 characters&quot;/);
    expect(/<error type="TARGET_TIMEOUT" message="([^"]*)"/.exec(xml)?.[1]).toBe('TARGET_TIMEOUT: no answer within 15000 ms');
  });

  it('the reason of a failure with several checks counts the others, and names where', () => {
    const t = failedRecord(SPEC, undefined, {
      message: `${SPEC} §8 x\n  ✗ ${SPEC} at /contractId\n    Expected: a\n    Received: b\n  ✗ ${SPEC}\n    Expected: c\n    Received: d`,
    });
    expect(reasonOf({ ...t, title: `${SPEC} §8 x` })).toBe('expected a; received b (at /contractId) (and 1 more failure(s))');
  });

  it("report.html of a run: the run's outcome as its heading, the quote beside the failure and in its requirement", () => {
    const html = renderReportHtml({ summary: run() });
    expect(html).toContain('<h1>FAILED</h1>');
    expect(html).not.toContain('CERTIFIABLE');
    const failure = html.slice(html.indexOf('<article class="failure"'), html.indexOf('</article>'));
    expect(failure).toContain('<blockquote class="basis">');
    for (const q of specQuotes) expect(failure).toContain(`<q>${q}</q>`);
    const req = html.slice(html.indexOf(`<b>${SPEC}</b>`));
    expect(req.slice(0, req.indexOf('</details>'))).toContain(`<q>${specQuotes[0]}</q>`);
    expect(html).toContain('<blockquote class="basis ours">');
    expect(html).toContain('This page is rendered from <code>conformance.json</code>');
  });
});

describe("a file's line on the console", () => {
  it('counts waived failures apart and is not green where nothing passed', () => {
    expect(fileCounts([{ verdict: 'passed' }, { verdict: 'waived' }])).toBe('2 tests: 1 passed, 0 failed, 0 skipped, 1 waived');
    expect(fileMark([{ verdict: 'skipped' }, { verdict: 'inconclusive' }])).toBe('-');
    expect(fileMark([{ verdict: 'warning' }])).toBe('!');
    expect(fileMark([{ verdict: 'passed' }, { verdict: 'waived' }])).toBe('✓');
    expect(fileMark([{ verdict: 'passed' }, { verdict: 'error' }])).toBe('✗');
  });
});
