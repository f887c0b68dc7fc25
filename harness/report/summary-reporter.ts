/**
 * The vitest reporter of the conformance run: turns every test (and every module that failed to load)
 * into a record with its verdict and its evidence, applies the run's waivers, lists the documents the
 * run fetched and the requirements it judged (with the spec's words each rests on), prints the summary,
 * and writes conformance.json, conformance.md, junit.xml, report.html and the evidence
 * (evidence/<area>.har) and allure-results/ (allure.ts), each whole (report-files.ts). Every message passes through the target's
 * redactor once more, on top of the redaction done where messages are made (the exchange records were
 * redacted where they were made). A run interrupted before its end (SIGINT, SIGTERM, SIGHUP or npm's end:
 * runner/interruption.ts; or any cancel of vitest's other than --bail's) is reported as what it had done,
 * marked interrupted: the tests vitest did not reach in a file it had started are skipped as
 * RUN_INTERRUPTED (RUN_STOPPED where --bail stopped the run).
 */
import { relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { Redactor } from '../secrets/redact.ts';
import { REQUIREMENT_ID, requirements } from '../spec/requirements.ts';
import { loadTarget, targetOf } from '../config/target.ts';
import { runInterruption } from '../runner/interruption.ts';
import { getRunInfo, type RunInfo } from '../runner/run-info.ts';
import { reportDirOf, runSettings } from '../runner/settings.ts';
import { settleDependencies } from './dependencies.ts';
import { RunEvidence, type EvidenceOutput } from './evidence.ts';
import { fetchedDocuments } from './fetched-documents.ts';
import { reportFolderOf } from './publish.ts';
import { summaryOf, verdictOf, VITEST_TIMEOUT, type RunSummary, type TestRecord } from './records.ts';
import { writeReports } from './report-files.ts';
import { runTarget } from './target-identity.ts';
import { requirementEntries } from './requirement-basis.ts';
import {
  hookErrorOf,
  hookMessage,
  isFilteredOut,
  listenForStop,
  noteOf,
  runInterrupted,
  runStarted,
  runStop,
  stoppedNote,
  vitestStateOf,
} from './test-outcome.ts';
import { renderText } from './text.ts';
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
      if (isFilteredOut(test)) {
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
        state === 'skipped'
          ? redactor.redact(stoppedNote(test) ?? noteOf(test) ?? (test.options.mode === 'todo' ? 'todo' : 'skipped without a reason'))
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
  const stop = runStop();
  // A run --bail stopped is what was asked for; any other stop leaves it short of what it was asked to check.
  const interruption = runInterruption() ?? (stop && !stop.bail ? { by: stop.reason, at: new Date().toISOString() } : undefined);
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
    requirements: requirementEntries(
      tests.map((t) => t.requirement),
      registry,
    ),
    unhandledErrors,
  });
  const marked: RunSummary = interruption
    ? {
        ...summary,
        status: 'interrupted',
        interruption: { ...interruption, filesNotStarted: modules.filter((m) => ![...m.children.allTests()].length).length },
      }
    : summary;
  return { summary: filteredOut ? { ...marked, filteredOut } : marked, evidence };
}

export default class SummaryReporter implements Reporter {
  private root = process.cwd();
  private vitest?: Vitest;

  onInit(vitest: Vitest) {
    this.root = vitest.config.root;
    this.vitest = vitest;
  }

  onTestRunStart() {
    runStarted();
  }

  onTestModuleQueued() {
    if (this.vitest) listenForStop(this.vitest);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, reason: TestRunEndReason) {
    if (reason === 'interrupted') runInterrupted();
    const reportDir = getRunInfo()?.reportDir ?? reportDirOf();
    const { summary, evidence } = summarise(modules, unhandled, this.root, reportDir);
    try {
      // A batch run of the selftest has no reader of report.html, and dozens of them run.
      writeReports(reportDir, summary, evidence, { html: !runSettings().batch });
    } catch (error) {
      // The CLI checks the folder first; writing can still fail (a full disk, vitest run directly). The
      // summary is printed all the same, and the run fails as a tool error (the CLI: no summary, exit 2).
      console.error(
        `partner-conformance: SETTING_INVALID: the reports could not be written to ${reportFolderOf(reportDir)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
      process.exitCode = 2;
    }
    console.log(renderText(summary));
  }
}
