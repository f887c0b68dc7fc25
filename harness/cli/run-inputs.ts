/**
 * What `run` and `certify` check before vitest starts, once the run's environment is planned: the target
 * file, the settings, and the waiver file. A bad one ends the command with one short message and exit 2
 * instead of a page of vitest output. Also empties the report folder's fetched/ (documents of an earlier
 * run must not be listed as this run's).
 */
import { ToolError } from '../errors.ts';
import { clearFetchedDocuments } from '../report/fetched-documents.ts';
import { loadWaiverFile, waiverFileOf, type WaiverFile } from '../report/waiver-file.ts';
import { runSettings } from '../runner/settings.ts';
import { loadTarget, type Target } from '../target.ts';

export interface RunInputs {
  /** Absent for the embedded sandbox (started inside the run). */
  target?: Target;
  waivers?: WaiverFile;
}

/** Validates the run's inputs; throws a ToolError (TARGET_FILE_*) with a short message when one is wrong. */
export function checkRunInputs(env: Record<string, string>, processEnv: NodeJS.ProcessEnv = process.env): RunInputs {
  const all = { ...processEnv, ...env };
  let target: Target | undefined;
  try {
    target = env.CONFORMANCE_TARGET ? loadTarget(env.CONFORMANCE_TARGET) : undefined;
    runSettings(all, target);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError('TARGET_FILE_INVALID', (error as Error).message);
  }
  const waiverFile = waiverFileOf(env.CONFORMANCE_TARGET, all);
  const waivers = waiverFile ? loadWaiverFile(waiverFile) : undefined;
  if (env.CONFORMANCE_REPORT_DIR) clearFetchedDocuments(env.CONFORMANCE_REPORT_DIR);
  return { target, waivers };
}
