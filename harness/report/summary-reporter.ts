/**
 * The vitest reporter of the conformance run: turns every test (and every module that failed to load)
 * into a record with its verdict and its evidence, applies the run's waivers, lists the documents the
 * run fetched, prints the summary, and writes conformance.json, conformance.md, junit.xml, the
 * evidence (evidence/<area>.har) and allure-results/ (allure.ts). Every message passes through the target's redactor once more, on top
 * of the redaction done where messages are made (the exchange records were redacted where they were made).
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import { Redactor } from '../redact.ts';
import { REQUIREMENT_ID, requirements } from '../requirements.ts';
import { loadTarget, targetOf } from '../target.ts';
import { getRunInfo, type RunInfo } from '../runner/run-info.ts';
import { reportDirOf } from '../runner/settings.ts';
import { writeAllureResults } from './allure.ts';
import { RunEvidence, writeEvidence, type EvidenceOutput } from './evidence.ts';
import { settleDependencies } from './dependencies.ts';
import { fetchedDocuments } from './fetched-documents.ts';
import { renderJunit } from './junit.ts';
import { makeDirs } from './report-dir.ts';
import { summaryOf, verdictOf, VITEST_TIMEOUT, type RunSummary, type TestRecord } from './records.ts';
import { runTarget } from './target-identity.ts';
import { hookErrorOf, hookMessage, vitestStateOf } from './test-outcome.ts';
import { renderMarkdown, renderText } from './text.ts';
import { loadRunWaivers, waiverFileName } from './waiver-file.ts';
import { applyWaivers } from './waivers.ts';

export type { RunSummary, TestRecord } from './records.ts';

function redactorFor(info: RunInfo | undefined): Redactor {
  const file = info?.targetFile;
  try {
    if (file && info?.targetData) return targetOf(file, structuredClone(info.targetData)).redactor;
    return file ? loadTarget(file).redactor : new Redactor();
  } catch {
    return new Redactor();
  }
}

function suitePathOf(test: TestCase): string[] {
  const path: string[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) path.unshift(parent.name);
  return path;
}

export function summarise(
  modules: ReadonlyArray<TestModule>,
  unhandled: ReadonlyArray<SerializedError>,
  root: string,
  reportDir?: string,
): { summary: RunSummary; evidence: EvidenceOutput } {
  const info = getRunInfo();
  const redactor = redactorFor(info);
  const registry = requirements();
  const tests: TestRecord[] = [];
  // Every record first, so that a test can point at an exchange another test handed over.
  const run = new RunEvidence();
  for (const module of modules) for (const test of module.children.allTests()) run.collect(test.meta().evidence);
  const evidence = run.render();
  let filteredOut = 0;
  for (const module of modules) {
    const file = relative(root, module.moduleId);
    const moduleTests = [...module.children.allTests()];
    // A file that failed to load ran none of its tests, and a failing hook of the file's own is a failure too: a tool error, never silence.
    const kept = moduleTests.some((test) => hookErrorOf(test)?.where === module.relativeModuleId);
    if (!kept) {
      for (const error of module.errors()) {
        const message = redactor.redact(error.message ?? String(error));
        tests.push({ title: `${file} could not run`, file, suitePath: [], ...verdictOf('failed', {}, message), durationMs: 0, message });
      }
    }
    for (const test of moduleTests) {
      const result = test.result();
      const hook = hookErrorOf(test);
      if (hook) {
        const message = redactor.redact(hookMessage(hook));
        tests.push({
          title: redactor.redact(test.name),
          file,
          suitePath: suitePathOf(test),
          ...verdictOf('failed', {}, message),
          durationMs: 0,
          message,
        });
        continue;
      }
      // Tests left out by a name filter (--grep, --only-failed) never ran: they are not results.
      if (result.state === 'skipped' && test.options.mode === 'skip' && !result.note) {
        filteredOut++;
        continue;
      }
      const meta = test.meta();
      const id = meta.requirement ?? test.name.split(' ')[0];
      const requirement = REQUIREMENT_ID.test(id) ? id : undefined;
      const req = requirement ? registry.get(requirement) : undefined;
      const state = vitestStateOf(test);
      const errors = (result.errors ?? []).map((e) => e.message).join('\n');
      const message =
        result.state === 'failed'
          ? redactor.redact(
              VITEST_TIMEOUT.test(errors)
                ? `TARGET_TIMEOUT: the test outlived its time budget and vitest's timeout (${errors.split('\n')[0]})`
                : errors,
            )
          : undefined;
      const skipReason =
        result.state === 'skipped'
          ? redactor.redact(result.note ?? (test.options.mode === 'todo' ? 'todo' : 'skipped without a reason'))
          : undefined;
      tests.push({
        requirement,
        title: redactor.redact(test.name),
        file,
        suitePath: suitePathOf(test),
        area: req?.area,
        section: req?.section,
        source: meta.source ?? req?.source,
        ...verdictOf(state, meta, message ?? skipReason),
        durationMs: Math.round(test.diagnostic()?.duration ?? 0),
        message,
        skipReason,
        warning: meta.warning ? redactor.redact(meta.warning) : undefined,
        rootCause: meta.rootCause?.about,
        rootCauseKey: meta.rootCause?.key,
        dependsOn: meta.dependsOn,
        ...run.referencesOf(meta.evidence),
      });
    }
  }
  const unhandledErrors = unhandled.map((e) => redactor.redact(e.message ?? String(e)));
  // A test that took a requirement as given and found it broken is inconclusive only where that requirement failed in the run.
  const settled = settleDependencies(tests);
  // The CLI validated the waiver file before the run; a bad one met here (vitest run directly) fails the run.
  let waived: ReturnType<typeof applyWaivers> | undefined;
  let waiverFile: ReturnType<typeof loadRunWaivers>;
  try {
    waiverFile = loadRunWaivers(info?.targetFile);
    if (waiverFile) waived = applyWaivers(settled, waiverFile.waivers);
  } catch (error) {
    unhandledErrors.push((error as Error).message);
  }
  const summary = summaryOf(waived?.tests ?? settled, {
    target: info ? runTarget(info, root) : undefined,
    seed: info?.seed,
    runs: info?.runs,
    areas: info?.areas,
    paceShare: info?.paceShare,
    startedAt: info?.startedAt,
    waivers: waiverFile && waived ? { file: waiverFileName(waiverFile), uses: waived.uses } : undefined,
    documents: reportDir ? fetchedDocuments(reportDir) : undefined,
    evidence: evidence.index.files.length ? evidence.index : undefined,
    unhandledErrors,
  });
  return { summary: filteredOut ? { ...summary, filteredOut } : summary, evidence };
}

/**
 * Writes conformance.md, junit.xml, the evidence files (none: no evidence is left from an earlier run),
 * allure-results/ and conformance.json; conformance.json last, so that a run whose writing failed midway leaves no
 * summary for the CLI to take as its result.
 */
export function writeReports(dir: string, summary: RunSummary, evidence?: EvidenceOutput): void {
  makeDirs(dir);
  writeFileSync(join(dir, 'conformance.md'), renderMarkdown(summary));
  writeFileSync(join(dir, 'junit.xml'), renderJunit(summary));
  writeEvidence(dir, evidence);
  writeAllureResults(dir, summary, evidence);
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(summary, null, 2));
}

export default class SummaryReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) {
    const reportDir = getRunInfo()?.reportDir ?? reportDirOf();
    const { summary, evidence } = summarise(modules, unhandled, this.root, reportDir);
    try {
      writeReports(reportDir, summary, evidence);
    } catch (error) {
      // The CLI checks the folder first; writing can still fail (a full disk, vitest run directly). The
      // summary is printed all the same, and the run fails as a tool error (the CLI: no summary, exit 2).
      console.error(
        `partner-conformance: the reports could not be written to ${reportDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
      process.exitCode = 2;
    }
    console.log(renderText(summary));
  }
}
