/**
 * What `run` and `certify` do before vitest starts: resolve the target file, the report folder and the
 * waiver file, validate the target file and the waivers (a bad one ends the command with one short
 * message and exit 2, and reports that say the run did not start), and build the environment of the
 * vitest process. One place, so that both commands resolve a target the same way.
 */
import { resolve } from 'node:path';
import { ToolError } from '../errors.ts';
import { clearFetchedDocuments } from '../report/fetched-documents.ts';
import { erroredSummary } from '../report/records.ts';
import { writeReports } from '../report/summary-reporter.ts';
import { renderText } from '../report/text.ts';
import { loadWaiverFile, waiverFileOf, WAIVERS_ENV, type WaiverFile } from '../report/waiver-file.ts';
import { runSettings } from '../runner/settings.ts';
import { loadTarget, type Target } from '../target.ts';

export interface RunRequest {
  target?: string;
  reports?: string;
  waivers?: string;
}

export interface PreparedRun {
  /** The environment of the vitest process, on top of this process's. */
  env: Record<string, string>;
  reportDir: string;
  /** Absent for the embedded sandbox (it is started inside the run). */
  target?: Target;
  waivers?: WaiverFile;
}

/** Where the run's reports go: --reports, else CONFORMANCE_REPORT_DIR, else reports/. */
export function reportDirOf(request: RunRequest, processEnv: NodeJS.ProcessEnv = process.env): string {
  return resolve(request.reports ?? processEnv.CONFORMANCE_REPORT_DIR ?? 'reports');
}

/** Resolves and validates everything the run needs; throws a ToolError with a short message when something is wrong. */
export function prepareRun(request: RunRequest, processEnv: NodeJS.ProcessEnv = process.env): PreparedRun {
  const env: Record<string, string> = {};
  const reportDir = reportDirOf(request, processEnv);
  env.CONFORMANCE_REPORT_DIR = reportDir;
  const waiverOverride = request.waivers ?? processEnv[WAIVERS_ENV];
  if (waiverOverride) env[WAIVERS_ENV] = resolve(waiverOverride);
  const targetFile = request.target ?? processEnv.CONFORMANCE_TARGET;
  let target: Target | undefined;
  try {
    if (targetFile) {
      env.CONFORMANCE_TARGET = resolve(targetFile);
      target = loadTarget(env.CONFORMANCE_TARGET);
    }
    runSettings({ ...processEnv, ...env }, target);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError('TARGET_FILE_INVALID', (error as Error).message);
  }
  const waiverFile = waiverFileOf(env.CONFORMANCE_TARGET, { ...processEnv, ...env });
  const waivers = waiverFile ? loadWaiverFile(waiverFile) : undefined;
  clearFetchedDocuments(reportDir);
  return { env, reportDir, target, waivers };
}

/** Ends a command whose run could not start: reports that say so, one message, exit 2. */
export function runDidNotStart(command: string, reportDir: string, error: ToolError): number {
  const summary = erroredSummary({ code: error.code, message: error.message });
  writeReports(reportDir, summary);
  console.error(`partner-conformance ${command}: ${error.message}`);
  console.error(`the run did not start; reports that say so are in ${reportDir}`);
  console.log(renderText(summary).split('\n').slice(-1)[0]);
  return 2;
}

/** Options shared by the commands that run the suite. */
export const RUN_OPTIONS = [
  { flag: '--target', value: 'FILE', meaning: 'the target file (default: CONFORMANCE_TARGET, else the embedded sandbox)' },
  { flag: '--waivers', value: 'FILE', meaning: `the waiver file (default: ${WAIVERS_ENV}, else the target file's waivers: key, else waivers.yaml beside the target file)` },
];
