/**
 * What `run` and `certify` check before vitest starts, once the run's environment is planned: the target
 * file, the settings, and the waiver file. A bad one ends the command with one short message and exit 2
 * instead of a page of vitest output, and nothing in the report folder changes. The target file's and the
 * waiver file's readers (their schemas) are imported only when there is such a file: a run against the
 * embedded sandbox starts without them.
 */
import { ToolError } from '../errors.ts';
import type { WaiverFile } from '../report/waiver-file.ts';
import { invalidSetting, runSettings, targetFileOf, variableOf, WAIVERS_ENV, type SettingVariable } from '../runner/settings.ts';
import type { Target } from '../config/target.ts';

export interface RunInputs {
  /** Absent for the embedded sandbox (started inside the run). */
  target?: Target;
  waivers?: WaiverFile;
}

/**
 * Validates the run's inputs; throws a ToolError (TARGET_FILE_*, SETTING_INVALID) with a short message
 * when one is wrong. `namedBy` gives the flag that set a variable, for the message to name.
 */
export async function checkRunInputs(
  env: Record<string, string>,
  processEnv: NodeJS.ProcessEnv = process.env,
  namedBy: Partial<Record<SettingVariable, string>> = {},
): Promise<RunInputs> {
  const all = { ...processEnv, ...env };
  let target: Target | undefined;
  const file = targetFileOf(env);
  const loadTarget = file ? (await import('../config/target.ts')).loadTarget : undefined;
  try {
    target = file && loadTarget ? loadTarget(file) : undefined;
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
  let waivers: WaiverFile | undefined;
  // A waiver file is named by the variable, or by (or beside) the target file.
  if (file || variableOf(WAIVERS_ENV, all)?.trim()) {
    const { loadWaiverFile, waiverFileOf } = await import('../report/waiver-file.ts');
    const waiverFile = waiverFileOf(file, all);
    waivers = waiverFile ? loadWaiverFile(waiverFile) : undefined;
  }
  return { target, waivers };
}
