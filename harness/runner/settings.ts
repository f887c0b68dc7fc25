/**
 * Run settings: the one place that reads environment variables by name. Precedence: defaults < target
 * file `settings:` < environment (the command line sets the environment of the run it starts).
 * `SETTINGS_TABLE` lists every variable and every `settings:` key with its default and meaning; README's
 * "Settings" section is that table (a selftest compares them, checks that no other file reads a variable
 * by name, and that every `settings` key of the schema has its row).
 */
import { ToolError } from '../errors.ts';
import type { Target } from '../config/target.ts';
import { AREAS, type Area } from '../areas.ts';
import { DEPTHS, isDepth } from './depth.ts';

export const CI_SEED = 20261121;
export const DEFAULT_WORKERS = 6;
export const DEFAULT_REPORT_DIR = 'reports';
/** The waiver file's variable (harness/report/waiver-file.ts reads the file). */
export const WAIVERS_ENV = 'CONFORMANCE_WAIVERS';

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

const ROWS = [
  {
    variable: 'CONFORMANCE_TARGET',
    default: 'the embedded sandbox',
    meaning:
      'the target file; without one, the sandbox is started on free loopback ports (serving only the selected areas, unless faults are switched on)',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_AREAS',
    default: "the target file's areas",
    meaning: "a comma-separated subset of the target file's areas",
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_DEPTH',
    default: 'standard',
    meaning: `quick, standard or nightly: the runs per property (${Object.entries(DEPTHS)
      .map(([d, n]) => `${d} ${n}`)
      .join(', ')}) and all that scales with them`,
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_RUNS',
    key: 'settings.runs',
    default: String(DEPTHS.standard),
    meaning: 'runs per property-based test; overrides the depth',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_SEED',
    key: 'settings.seed',
    default: `${CI_SEED} in CI, random otherwise`,
    meaning: 'property-test seed; always printed, so a failing run can be repeated',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_SHRINK',
    default: '1',
    meaning: '0 stops a failing property at its first counterexample (the fault run uses it)',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_PACE_SHARE',
    default: '1',
    meaning: 'the share of every documented rate limit this run may use (a shard of n: 1/n)',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_REPORT_DIR',
    default: DEFAULT_REPORT_DIR,
    meaning:
      'where the reports are written (made if missing; one that cannot be made or written stops the run before it starts); a run writes into a fresh folder inside it and swaps its reports in whole at the end',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_WORKERS',
    default: `${DEFAULT_WORKERS}; the embedded sandbox: one per core and one more, at most one per area and one more`,
    meaning:
      'vitest workers (against a staging the tests wait on the network and the shared pacer, not the CPU; the embedded sandbox declares high limits, so there they wait on the CPU)',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_PROGRESS',
    default: 'on, off in CI',
    meaning: '1 prints a progress line every few seconds, also in CI; 0 never',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_SPEC',
    default: '../shared/spec/partner-interfaces.md',
    meaning: 'the contract; read by the selftests (every quote is found in it) and the certification manifest',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_SANDBOX_FAULTS',
    default: 'none',
    meaning: 'faults the embedded sandbox starts with (comma-separated ids; for selftests)',
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_WAIVERS',
    default: "the target file's waivers, else waivers.yaml beside it",
    meaning: 'the waiver file: known failures accepted for a time',
    scope: 'run',
  },
  { variable: 'CONFORMANCE_SIGNING_KEY', default: 'none', meaning: 'certify: the PEM private key that signs the pack', scope: 'run' },
  { variable: 'CONFORMANCE_SIGNING_KEY_FILE', default: 'none', meaning: 'certify: the file of that key', scope: 'run' },
  {
    variable: 'CONFORMANCE_SIGNING_KEY_PASSPHRASE',
    default: 'none',
    meaning: "certify: the key's passphrase, if it is encrypted",
    scope: 'run',
  },
  { variable: 'CONFORMANCE_CERTIFIER', default: 'none', meaning: 'certify: who certifies, recorded in the signed manifest', scope: 'run' },
  {
    variable: 'CI',
    default: 'unset',
    meaning: 'set (as CI services do): the default seed is the fixed one, and no progress lines',
    scope: 'run',
  },
  {
    key: 'settings.timeoutMs',
    default: '15000',
    meaning: "each request's total deadline in ms: connect, headers and the whole body; past it TARGET_TIMEOUT",
    scope: 'run',
  },
  {
    key: 'settings.paceFraction',
    default: '0.5',
    meaning: 'ordinary traffic stays at this fraction of each documented rate limit',
    scope: 'run',
  },
  {
    key: 'settings.retry429',
    default: '3',
    meaning: 'how often an ordinary request retries a 429, honouring Retry-After up to maxRetryAfterMs; then TARGET_RATE_LIMITED',
    scope: 'run',
  },
  {
    key: 'settings.maxRetryAfterMs',
    default: '10000',
    meaning: 'the longest wait a 429 is honoured for, in ms; a longer one ends the request as TARGET_RATE_LIMITED at once',
    scope: 'run',
  },
  {
    key: 'settings.maxResponseBytes',
    default: '2097152',
    meaning: "the size cap of one answer's body; a larger answer is cut off as TARGET_RESPONSE_TOO_LARGE",
    scope: 'run',
  },
  {
    variable: 'CONFORMANCE_BATCH',
    default: 'none',
    meaning: 'the manifest of a batch run: many sandbox variants checked in one vitest run (selftest/variants/)',
    scope: 'fault-run',
  },
  { variable: 'FAULTS', default: 'every fault', meaning: 'only these faults (comma-separated ids)', scope: 'fault-run' },
  { variable: 'AREA', default: 'every area', meaning: "only this area's faults", scope: 'fault-run' },
  {
    variable: 'FAULT_BATCH',
    default: '40',
    meaning: 'variants (faults, latitudes) checked in one batch run, each against its own sandbox',
    scope: 'fault-run',
  },
  { variable: 'FAULT_PARALLEL', default: 'cores + 1', meaning: 'batch runs of the fault and latitude runs at a time', scope: 'fault-run' },
  { variable: 'SKIP_CLEAN', default: 'unset', meaning: 'set: skips the run against the clean sandbox', scope: 'fault-run' },
  { variable: 'SKIP_DEGENERATE', default: 'unset', meaning: 'set: skips the degenerate target-wide faults', scope: 'fault-run' },
  {
    variable: 'DEGENERATE',
    default: 'every one',
    meaning: 'only these degenerate target-wide faults (comma-separated ids)',
    scope: 'fault-run',
  },
  {
    variable: 'PRECISION',
    default: "the day's part: k/14 of business, k/4 of every other area",
    meaning:
      "which faults run their area's whole suite, so that collateral failures (blocking requirements a fault does not name) show: full, off, or k/n (the k-th of n parts of every area's faults)",
    scope: 'fault-run',
  },
] as const satisfies readonly SettingRow[];

export const SETTINGS_TABLE: readonly SettingRow[] = ROWS;

/** Every variable of SETTINGS_TABLE: the only names `variableOf` reads. */
export type SettingVariable = Extract<(typeof ROWS)[number], { variable: string }>['variable'];

/** One variable of the table, by name (empty counts as unset): how every other file reads the environment. */
export function variableOf(name: SettingVariable, env: Environment = process.env): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** README's Settings table: exactly SETTINGS_TABLE. */
export function renderSettingsTable(rows: readonly SettingRow[] = SETTINGS_TABLE): string {
  const cell = (text: string | undefined, code = true) => (text ? (code ? `\`${text}\`` : text) : '–');
  return [
    '| variable | target-file key | default | meaning |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${cell(r.variable)} | ${cell(r.key)} | ${cell(r.default, false)} | ${r.scope === 'fault-run' ? '(fault run) ' : ''}${r.meaning} |`,
    ),
  ].join('\n');
}

export interface RunSettings {
  targetFile?: string;
  seed: number;
  runs: number;
  shrink: boolean;
  reportDir: string;
  workers: number;
  sandboxFaults: string[];
  /** Only these areas (of the target file's), when given. */
  areas?: Area[];
  /** The share of every documented limit this run may use (1, or 1/n for a shard of n). */
  paceShare: number;
  /** A batch run's manifest (CONFORMANCE_BATCH), when this is one. */
  batch?: string;
}

/**
 * A setting the suite cannot use (SETTING_INVALID), named as the user gave it: the variable, or the
 * command-line flag that set it (`--seed must be an integer`).
 */
export function invalidSetting(message: string): ToolError {
  return new ToolError('SETTING_INVALID', message);
}

/** An integer setting from its text; `name` is how the user gave it (a variable or a flag). */
export function integerSetting(text: string, name: string, check: (n: number) => boolean, what: string): number {
  const n = /^\s*[-+]?\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || !check(n)) throw invalidSetting(`${name} must be ${what}, got "${text}"`);
  return n;
}

/** A comma-separated list of areas; `name` is how the user gave it (a variable or a flag). */
export function areasSetting(text: string, name: string): Area[] {
  const areas = list(text);
  for (const area of areas)
    if (!(AREAS as readonly string[]).includes(area))
      throw invalidSetting(`${name}: unknown area "${area}"; the areas are ${AREAS.join(', ')}`);
  if (!areas.length) throw invalidSetting(`${name} names no area; the areas are ${AREAS.join(', ')}`);
  return areas as Area[];
}

function integer(env: Environment, name: SettingVariable, check: (n: number) => boolean, what: string): number | undefined {
  const text = variableOf(name, env);
  return text === undefined ? undefined : integerSetting(text, name, check, what);
}

const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The run's settings from the environment, over the target file's `settings:`, over the defaults. */
export function runSettings(env: Environment = process.env, target?: Pick<Target, 'settings'>): RunSettings {
  const envSeed = integer(env, 'CONFORMANCE_SEED', () => true, 'an integer');
  const envRuns = integer(env, 'CONFORMANCE_RUNS', (n) => n > 0, 'a positive integer');
  const workers = integer(env, 'CONFORMANCE_WORKERS', (n) => n > 0, 'a positive integer');
  const depth = variableOf('CONFORMANCE_DEPTH', env);
  if (depth !== undefined && !isDepth(depth))
    throw invalidSetting(`CONFORMANCE_DEPTH must be one of ${Object.keys(DEPTHS).join(', ')}, got "${depth}"`);
  const areasText = variableOf('CONFORMANCE_AREAS', env);
  const areas = areasText === undefined ? undefined : areasSetting(areasText, 'CONFORMANCE_AREAS');
  const shareText = variableOf('CONFORMANCE_PACE_SHARE', env);
  const paceShare = shareText === undefined ? 1 : Number(shareText);
  if (!(paceShare > 0 && paceShare <= 1)) throw invalidSetting(`CONFORMANCE_PACE_SHARE must be a number in (0, 1], got "${shareText}"`);
  const defaultSeed = env.CI ? CI_SEED : Math.floor(Math.random() * 2 ** 31);
  return {
    targetFile: targetFileOf(env),
    seed: envSeed ?? target?.settings.seed ?? defaultSeed,
    runs: envRuns ?? (depth && isDepth(depth) ? DEPTHS[depth] : undefined) ?? target?.settings.runs ?? DEPTHS.standard,
    shrink: env.CONFORMANCE_SHRINK !== '0',
    reportDir: reportDirOf(env),
    workers: workers ?? DEFAULT_WORKERS,
    sandboxFaults: list(env.CONFORMANCE_SANDBOX_FAULTS),
    areas,
    paceShare,
    batch: variableOf('CONFORMANCE_BATCH', env),
  };
}

/** CONFORMANCE_TARGET, for a caller that needs nothing else (and must not fail on another bad variable). */
export function targetFileOf(env: Environment = process.env): string | undefined {
  return env.CONFORMANCE_TARGET || undefined;
}

/**
 * Whether this process was started by an npm script (npm's own variable, not a setting): its parent is
 * then the shell npm ran the script in, which a killed npm can leave behind (cli/interruption.ts).
 */
export function startedByNpmScript(env: Environment = process.env): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/** CONFORMANCE_REPORT_DIR, for a caller that needs nothing else. */
export function reportDirOf(env: Environment = process.env): string {
  return env.CONFORMANCE_REPORT_DIR || DEFAULT_REPORT_DIR;
}

/** Progress lines: CONFORMANCE_PROGRESS=1 always, 0 never, otherwise unless in CI. */
export function progressWanted(env: Environment = process.env): boolean {
  if (env.CONFORMANCE_PROGRESS === '1') return true;
  if (env.CONFORMANCE_PROGRESS === '0') return false;
  return !env.CI;
}

/** CONFORMANCE_SPEC: the contract document named by the user, if any. */
export function specFileOf(env: Environment = process.env): string | undefined {
  return env.CONFORMANCE_SPEC?.trim() || undefined;
}

export interface FaultRunSettings {
  faults: string[];
  area?: string;
  /** Variants per batch run; undefined: the fault run's default. */
  batchSize?: number;
  /** Batch runs at a time; undefined: one per core and one more. */
  parallel?: number;
  skipClean: boolean;
  skipDegenerate: boolean;
  degenerate: string[];
  /**
   * Which faults run their area's whole suite, so that a failure of a requirement the fault does not name
   * (collateral) shows: `full` every fault, `off` none (only the tests of what each names), a share
   * `k/n`: the k-th of n parts of every area's faults, or (the default) the day's: the part of the day
   * of each area's own number of parts (`precisionParts`), so that that many days of selftests measure
   * every fault of the area.
   */
  precision: 'full' | 'off' | { part: number; of: number } | { day: number };
}

/** The fault run's own variables (selftest/fault-run.ts). */
export function faultRunSettings(env: Environment = process.env): FaultRunSettings {
  return {
    faults: list(env.FAULTS),
    area: env.AREA || undefined,
    batchSize: integer(env, 'FAULT_BATCH', (n) => n > 0, 'a positive integer'),
    parallel: integer(env, 'FAULT_PARALLEL', (n) => n > 0, 'a positive integer'),
    skipClean: Boolean(env.SKIP_CLEAN),
    skipDegenerate: Boolean(env.SKIP_DEGENERATE),
    degenerate: list(env.DEGENERATE),
    precision: precisionOf(env),
  };
}

/**
 * Parts the default precision share cuts an area's faults into, one part a day. A business fault runs the
 * area's 1,800 tests (a batch run of ten took about 100 core-s), so its 277 faults go in fourteen parts:
 * two batch runs a day, about a minute and a half more of the selftest on two cores, where a quarter had
 * been seven runs and six minutes more. The other areas' whole suites are small (all their faults took
 * 240 core-s).
 */
const PRECISION_PARTS: Readonly<Record<string, number>> = { business: 14 };
const PRECISION_PARTS_OTHERWISE = 4;

/** Parts the default precision share cuts the area's faults into. */
export function precisionParts(area: string): number {
  return PRECISION_PARTS[area] ?? PRECISION_PARTS_OTHERWISE;
}

function precisionOf(env: Environment): FaultRunSettings['precision'] {
  const value = variableOf('PRECISION', env)?.trim();
  if (!value) return { day: Math.floor(Date.now() / 86_400_000) };
  if (value === 'full' || value === 'off') return value;
  const share = /^(\d+)\/(\d+)$/.exec(value);
  if (share && +share[2] > 0 && +share[1] < +share[2]) return { part: +share[1], of: +share[2] };
  throw invalidSetting(`PRECISION must be full, off, or k/n (the k-th of n parts of every area's faults, k from 0), got "${value}"`);
}
