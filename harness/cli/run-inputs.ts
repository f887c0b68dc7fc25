/**
 * What `run` and `certify` check before vitest starts, once the run's environment is planned: the target
 * file, the settings, and the waiver file. A bad one ends the command with one short message and exit 2
 * instead of a page of vitest output. Also empties the report folder's fetched/ (documents of an earlier
 * run must not be listed as this run's).
 */
import { ToolError } from '../errors.ts';
import { clearFetchedDocuments } from '../report/fetched-documents.ts';
import { loadWaiverFile, waiverFileOf, type WaiverFile } from '../report/waiver-file.ts';
import { invalidSetting, runSettings, targetFileOf, variableOf, type SettingVariable } from '../runner/settings.ts';
import { loadTarget, type Target } from '../target.ts';

export interface RunInputs {
  /** Absent for the embedded sandbox (started inside the run). */
  target?: Target;
  waivers?: WaiverFile;
}

/**
 * Validates the run's inputs; throws a ToolError (TARGET_FILE_*, SETTING_INVALID) with a short message
 * when one is wrong. `namedBy` gives the flag that set a variable, for the message to name.
 */
export function checkRunInputs(
  env: Record<string, string>,
  processEnv: NodeJS.ProcessEnv = process.env,
  namedBy: Partial<Record<SettingVariable, string>> = {},
): RunInputs {
  const all = { ...processEnv, ...env };
  let target: Target | undefined;
  try {
    const file = targetFileOf(env);
    target = file ? loadTarget(file) : undefined;
    const settings = runSettings(all, target);
    const absent = target && settings.areas ? settings.areas.filter((area) => !target!.areas.includes(area)) : [];
    if (target && absent.length) {
      const name = namedBy.CONFORMANCE_AREAS ?? 'CONFORMANCE_AREAS';
      throw invalidSetting(
        `${name} names ${absent.join(', ')}, which target file "${target.name}" does not check (its areas: ${target.areas.join(', ') || 'none'})`,
      );
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError('TARGET_FILE_INVALID', (error as Error).message);
  }
  const waiverFile = waiverFileOf(targetFileOf(env), all);
  const waivers = waiverFile ? loadWaiverFile(waiverFile) : undefined;
  const reportDir = variableOf('CONFORMANCE_REPORT_DIR', env);
  if (reportDir) clearFetchedDocuments(reportDir);
  return { target, waivers };
}
