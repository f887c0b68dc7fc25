/**
 * Run settings, one typed object with documented precedence: defaults < target file < environment.
 *   CONFORMANCE_TARGET        target file (default: the embedded sandbox, started on free loopback ports)
 *   CONFORMANCE_SEED          property-test seed (default: fixed in CI, random otherwise; always printed)
 *   CONFORMANCE_RUNS          property-test runs per property (default 25; a nightly job may raise it)
 *   CONFORMANCE_SHRINK        0 stops a failing property at its first counterexample (fault runs use it)
 *   CONFORMANCE_REPORT_DIR    where reports go (default reports/)
 *   CONFORMANCE_SANDBOX_FAULTS  faults for the embedded sandbox (comma-separated; selftest only)
 *   CONFORMANCE_DEPTH         quick | standard | nightly: the runs per property of harness/runner/depth.ts
 *   CONFORMANCE_AREAS         a comma-separated subset of the target file's areas
 *   CONFORMANCE_PACE_SHARE    the share of every documented rate limit this run may use (a shard of n: 1/n)
 */
import { AREAS, type Area, type Target } from '../target.ts';
import { DEPTHS, isDepth } from './depth.ts';

export const CI_SEED = 20261121;

export interface RunSettings {
  targetFile?: string;
  seed: number;
  runs: number;
  shrink: boolean;
  reportDir: string;
  sandboxFaults: string[];
  /** Only these areas (of the target file's), when given. */
  areas?: Area[];
  /** The share of every documented limit this run may use (1, or 1/n for a shard of n). */
  paceShare: number;
}

export function runSettings(env: NodeJS.ProcessEnv, target?: Pick<Target, 'settings'>): RunSettings {
  const envSeed = env.CONFORMANCE_SEED ? Number(env.CONFORMANCE_SEED) : undefined;
  const envRuns = env.CONFORMANCE_RUNS ? Number(env.CONFORMANCE_RUNS) : undefined;
  if (envSeed !== undefined && !Number.isInteger(envSeed)) throw new Error(`CONFORMANCE_SEED must be an integer, got "${env.CONFORMANCE_SEED}"`);
  if (envRuns !== undefined && !(Number.isInteger(envRuns) && envRuns > 0)) throw new Error(`CONFORMANCE_RUNS must be a positive integer, got "${env.CONFORMANCE_RUNS}"`);
  const depth = env.CONFORMANCE_DEPTH;
  if (depth !== undefined && depth !== '' && !isDepth(depth)) throw new Error(`CONFORMANCE_DEPTH must be one of ${Object.keys(DEPTHS).join(', ')}, got "${depth}"`);
  const areas = env.CONFORMANCE_AREAS ? env.CONFORMANCE_AREAS.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  for (const area of areas ?? []) if (!(AREAS as readonly string[]).includes(area)) throw new Error(`CONFORMANCE_AREAS: unknown area "${area}"; the areas are ${AREAS.join(', ')}`);
  const paceShare = env.CONFORMANCE_PACE_SHARE ? Number(env.CONFORMANCE_PACE_SHARE) : 1;
  if (!(paceShare > 0 && paceShare <= 1)) throw new Error(`CONFORMANCE_PACE_SHARE must be a number in (0, 1], got "${env.CONFORMANCE_PACE_SHARE}"`);
  const defaultSeed = env.CI ? CI_SEED : Math.floor(Math.random() * 2 ** 31);
  return {
    targetFile: env.CONFORMANCE_TARGET || undefined,
    seed: envSeed ?? target?.settings.seed ?? defaultSeed,
    runs: envRuns ?? (depth && isDepth(depth) ? DEPTHS[depth] : undefined) ?? target?.settings.runs ?? DEPTHS.standard,
    shrink: env.CONFORMANCE_SHRINK !== '0',
    reportDir: env.CONFORMANCE_REPORT_DIR || 'reports',
    sandboxFaults: (env.CONFORMANCE_SANDBOX_FAULTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    areas: areas as Area[] | undefined,
    paceShare,
  };
}
