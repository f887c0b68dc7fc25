/**
 * Run settings, one typed object with documented precedence: defaults < target file < environment.
 *   CONFORMANCE_TARGET        target file (default: the embedded sandbox, started on free loopback ports)
 *   CONFORMANCE_SEED          property-test seed (default: fixed in CI, random otherwise; always printed)
 *   CONFORMANCE_RUNS          property-test runs per property (default 25; a nightly job may raise it)
 *   CONFORMANCE_SHRINK        0 stops a failing property at its first counterexample (fault runs use it)
 *   CONFORMANCE_REPORT_DIR    where reports go (default reports/)
 *   CONFORMANCE_SANDBOX_FAULTS  faults for the embedded sandbox (comma-separated; selftest only)
 */
import type { Target } from '../target.ts';

export const CI_SEED = 20261121;

export interface RunSettings {
  targetFile?: string;
  seed: number;
  runs: number;
  shrink: boolean;
  reportDir: string;
  sandboxFaults: string[];
}

export function runSettings(env: NodeJS.ProcessEnv, target?: Pick<Target, 'settings'>): RunSettings {
  const envSeed = env.CONFORMANCE_SEED ? Number(env.CONFORMANCE_SEED) : undefined;
  const envRuns = env.CONFORMANCE_RUNS ? Number(env.CONFORMANCE_RUNS) : undefined;
  if (envSeed !== undefined && !Number.isInteger(envSeed)) throw new Error(`CONFORMANCE_SEED must be an integer, got "${env.CONFORMANCE_SEED}"`);
  if (envRuns !== undefined && !(Number.isInteger(envRuns) && envRuns > 0)) throw new Error(`CONFORMANCE_RUNS must be a positive integer, got "${env.CONFORMANCE_RUNS}"`);
  const defaultSeed = env.CI ? CI_SEED : Math.floor(Math.random() * 2 ** 31);
  return {
    targetFile: env.CONFORMANCE_TARGET || undefined,
    seed: envSeed ?? target?.settings.seed ?? defaultSeed,
    runs: envRuns ?? target?.settings.runs ?? 25,
    shrink: env.CONFORMANCE_SHRINK !== '0',
    reportDir: env.CONFORMANCE_REPORT_DIR || 'reports',
    sandboxFaults: (env.CONFORMANCE_SANDBOX_FAULTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  };
}
