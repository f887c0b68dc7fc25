/**
 * Run settings: the one place that reads environment variables. Precedence: defaults < target file
 * `settings:` < environment. `SETTINGS_TABLE` lists every variable and every `settings:` key with its
 * default and meaning; README's "Settings" section is that table (a selftest compares them, and checks
 * that no other file reads the environment and that every `settings` key of the schema has its row).
 */
import type { Target } from '../target.ts';

export const CI_SEED = 20261121;
export const DEFAULT_RUNS = 25;
export const DEFAULT_WORKERS = 6;
export const DEFAULT_REPORT_DIR = 'reports';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface SettingRow {
  /** The environment variable, if the setting has one. */
  variable?: string;
  /** The target-file key, if the setting has one. */
  key?: string;
  default: string;
  meaning: string;
  /** fault-run: read by the project's own fault run (selftest/fault-run.ts) only. */
  scope: 'run' | 'fault-run';
}

export const SETTINGS_TABLE: readonly SettingRow[] = [
  { variable: 'CONFORMANCE_TARGET', default: 'the embedded sandbox', meaning: 'the target file; without one, the sandbox is started on free loopback ports', scope: 'run' },
  { variable: 'CONFORMANCE_SEED', key: 'settings.seed', default: `${CI_SEED} in CI, random otherwise`, meaning: 'property-test seed; always printed, so a failing run can be repeated', scope: 'run' },
  { variable: 'CONFORMANCE_RUNS', key: 'settings.runs', default: String(DEFAULT_RUNS), meaning: 'runs per property-based test; a nightly job may raise it', scope: 'run' },
  { variable: 'CONFORMANCE_SHRINK', default: '1', meaning: '0 stops a failing property at its first counterexample (the fault run uses it)', scope: 'run' },
  { variable: 'CONFORMANCE_REPORT_DIR', default: DEFAULT_REPORT_DIR, meaning: 'where the reports are written', scope: 'run' },
  { variable: 'CONFORMANCE_WORKERS', default: String(DEFAULT_WORKERS), meaning: 'vitest workers (the tests wait on the network and the shared pacer, not the CPU)', scope: 'run' },
  { variable: 'CI', default: 'unset', meaning: 'set (as CI services do): the default seed is the fixed one', scope: 'run' },
  { key: 'settings.timeoutMs', default: '15000', meaning: "milliseconds a request may wait for the answer's headers, and again for its body", scope: 'run' },
  { key: 'settings.paceFraction', default: '0.5', meaning: 'ordinary traffic stays at this fraction of each documented rate limit', scope: 'run' },
  { key: 'settings.retry429', default: '3', meaning: 'how often an ordinary request retries a 429, honouring Retry-After', scope: 'run' },
  { variable: 'FAULTS', default: 'every fault', meaning: 'only these faults (comma-separated ids)', scope: 'fault-run' },
  { variable: 'AREA', default: 'every area', meaning: "only this area's faults", scope: 'fault-run' },
  { variable: 'FAULT_CONCURRENCY', default: 'cores + 1, from 2 to 4', meaning: 'faults run at once', scope: 'fault-run' },
  { variable: 'SKIP_CLEAN', default: 'unset', meaning: 'set: skips the run against the clean sandbox', scope: 'fault-run' },
];

/** README's Settings table: exactly SETTINGS_TABLE. */
export function renderSettingsTable(rows: readonly SettingRow[] = SETTINGS_TABLE): string {
  const cell = (text: string | undefined, code = true) => (text ? (code ? `\`${text}\`` : text) : '–');
  return [
    '| variable | target-file key | default | meaning |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.variable)} | ${cell(r.key)} | ${cell(r.default, false)} | ${r.scope === 'fault-run' ? '(fault run) ' : ''}${r.meaning} |`),
  ].join('\n');
}

export interface RunSettings {
  targetFile?: string;
  seed: number;
  runs: number;
  shrink: boolean;
  reportDir: string;
  workers: number;
}

function integer(env: Environment, name: string, check: (n: number) => boolean, what: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || !check(n)) throw new Error(`${name} must be ${what}, got "${text}"`);
  return n;
}

/** The run's settings from the environment, over the target file's `settings:`, over the defaults. */
export function runSettings(target?: Pick<Target, 'settings'>, env: Environment = process.env): RunSettings {
  const envSeed = integer(env, 'CONFORMANCE_SEED', () => true, 'an integer');
  const envRuns = integer(env, 'CONFORMANCE_RUNS', (n) => n > 0, 'a positive integer');
  const workers = integer(env, 'CONFORMANCE_WORKERS', (n) => n > 0, 'a positive integer');
  const defaultSeed = env.CI ? CI_SEED : Math.floor(Math.random() * 2 ** 31);
  return {
    targetFile: env.CONFORMANCE_TARGET || undefined,
    seed: envSeed ?? target?.settings.seed ?? defaultSeed,
    runs: envRuns ?? target?.settings.runs ?? DEFAULT_RUNS,
    shrink: env.CONFORMANCE_SHRINK !== '0',
    reportDir: env.CONFORMANCE_REPORT_DIR || DEFAULT_REPORT_DIR,
    workers: workers ?? DEFAULT_WORKERS,
  };
}

export interface FaultRunSettings {
  faults: string[];
  area?: string;
  /** Undefined: the fault run chooses from the cores. */
  concurrency?: number;
  skipClean: boolean;
}

/** The fault run's own variables (selftest/fault-run.ts). */
export function faultRunSettings(env: Environment = process.env): FaultRunSettings {
  return {
    faults: (env.FAULTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    area: env.AREA || undefined,
    concurrency: integer(env, 'FAULT_CONCURRENCY', (n) => n > 0, 'a positive integer'),
    skipClean: Boolean(env.SKIP_CLEAN),
  };
}
