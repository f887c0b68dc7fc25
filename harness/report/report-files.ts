/**
 * The files of a run's reports, rendered from its summary: conformance.md, junit.xml, the evidence
 * (evidence/<area>.har), report.html, allure-results/ and conformance.json, each written whole (publish.ts), the summary
 * last, so that a run whose writing failed midway leaves no summary to be taken for its result. A report
 * folder handed to a run by the command line is a fresh one (publish.ts swaps it in when it is whole);
 * `writeReportsWhole` does the same for a command that writes reports itself (merge).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { renderReportHtml } from '../certify/html/report-html.ts';
import { printableJson } from '../text/printable.ts';
import { writeAllureResults } from './allure.ts';
import { exchangesOf, writeEvidence, type EvidenceOutput } from './evidence.ts';
import { renderJunit } from './junit.ts';
import { makeStagingFolder, publishReports, writeWhole } from './publish.ts';
import type { RunSummary } from './records.ts';
import { makeDirs } from './report-dir.ts';
import { renderMarkdown } from './text.ts';

export const SUMMARY_FILE = 'conformance.json';

export interface ReportOptions {
  /** false leaves out report.html (a selftest's batch run, whose only reader is the selftest). */
  html?: boolean;
}

export function writeReports(dir: string, summary: RunSummary, evidence?: EvidenceOutput, options: ReportOptions = {}): void {
  makeDirs(dir);
  writeWhole(join(dir, 'conformance.md'), renderMarkdown(summary));
  writeWhole(join(dir, 'junit.xml'), renderJunit(summary));
  writeEvidence(dir, evidence);
  if (options.html !== false)
    writeWhole(join(dir, 'report.html'), renderReportHtml({ summary, exchanges: exchangesOf(evidence?.files ?? []) }));
  writeAllureResults(dir, summary, evidence);
  writeWhole(join(dir, SUMMARY_FILE), printableJson(summary, 2));
}

/** Writes the reports into a fresh folder and swaps them in for the last ones of `dir`, whole or not at all. */
export function writeReportsWhole(dir: string, summary: RunSummary, evidence?: EvidenceOutput): void {
  const staging = makeStagingFolder(dir);
  try {
    writeReports(staging, summary, evidence);
    publishReports(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
