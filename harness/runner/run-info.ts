/** What the global setup learned, for the reporter in the same process. */
import type { PaceCounts } from '../request/pace-counts.ts';
import type { TargetFileData } from '../config/target.ts';

export interface RunInfo {
  targetFile: string;
  targetName: string;
  kind: string;
  vendorConventions: boolean;
  strictPolicy: boolean;
  /** When the global setup finished resolving the target (ISO 8601). */
  startedAt: string;
  seed: number;
  runs: number;
  reportDir: string;
  /** The share of every documented rate limit this run used (1/n for a shard of n). */
  paceShare: number;
  /** The areas this run checks. */
  areas: string[];
  /** The target file's data as the global setup checked it: the reporter builds its redactor from it instead of parsing and checking the file again. */
  targetData?: TargetFileData;
  /** Set when the target is the embedded sandbox the run started (sandbox/global-setup.ts), with its faults. */
  embeddedSandbox?: { faults: string[] };
  /** What the shared pacer has given slots for so far (absent in a batch run, whose variants share it). */
  paceCounts?: () => PaceCounts;
}

const KEY = Symbol.for('partner-conformance.run-info');
const store = globalThis as unknown as Record<symbol, RunInfo | undefined>;

export function setRunInfo(info: RunInfo): void {
  store[KEY] = info;
}

export function getRunInfo(): RunInfo | undefined {
  return store[KEY];
}
