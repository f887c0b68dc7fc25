/**
 * Every environment variable is read once, in harness/runner/settings.ts, and listed with its
 * target-file key, default and meaning in SETTINGS_TABLE, which README's "Settings" section is.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyPaths } from '../../harness/config/target-schema.ts';
import {
  CI_SEED,
  faultRunSettings,
  precisionParts,
  renderSettingsTable,
  runSettings,
  SETTINGS_TABLE,
} from '../../harness/runner/settings.ts';
import { DEFAULT_SETTINGS } from '../../harness/config/target.ts';
import { ROOT } from '../helpers.ts';

const SETTINGS_FILE = 'harness/runner/settings.ts';
/** target.ts reads the variables a target file names itself (`${NAME}`), whatever they are called. */
const TARGET_FILE = 'harness/config/target.ts';

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|mjs|js)$/.test(name)) yield path;
  }
}

const scanned = () => [
  ...['harness', 'suites', 'generators', 'bin'].flatMap((d) => [...sources(join(ROOT, d))]),
  join(ROOT, 'selftest', 'fault-run.ts'),
  join(ROOT, 'vitest.config.ts'),
];

/** A variable read by name: process.env.X, process.env[...], env.X, env['X'], env[SOME_CONST]. */
const NAMED_READ = /process\.env\s*(\.|\[)|\benv\.[A-Z][A-Z0-9_]*\b|\benv\[\s*(['"`][A-Z]|[A-Z][A-Z0-9_]*\s*\])/;

describe('settings', () => {
  it('no file but harness/runner/settings.ts reads a variable by name (passing the environment on is fine)', () => {
    const readers = scanned()
      .filter((file) => NAMED_READ.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(readers).toEqual([SETTINGS_FILE]);
    // target.ts reads the variables a target file names itself (${NAME}), whatever they are called.
    expect(readFileSync(join(ROOT, TARGET_FILE), 'utf8')).toContain('env[name]');
  });

  it('every variable of SETTINGS_TABLE is read (by settings.ts, or through variableOf), and none other', () => {
    const texts = scanned().map((file) => readFileSync(file, 'utf8'));
    const constants = new Map(
      texts.flatMap((t) => [...t.matchAll(/const ([A-Z][A-Z0-9_]*) = '([A-Z][A-Z0-9_]*)'/g)].map((m) => [m[1], m[2]] as const)),
    );
    const own = readFileSync(join(ROOT, SETTINGS_FILE), 'utf8');
    const read = new Set([
      ...[...own.matchAll(/env\.([A-Z_][A-Z0-9_]*)|integer\(env, '([A-Z_][A-Z0-9_]*)'/g)].map((m) => m[1] ?? m[2]),
      ...texts.flatMap((t) =>
        [...t.matchAll(/variableOf\(\s*(?:'([A-Z][A-Z0-9_]*)'|([A-Z][A-Z0-9_]*)\b)/g)].map(
          (m) => m[1] ?? constants.get(m[2]) ?? `unknown constant ${m[2]}`,
        ),
      ),
    ]);
    const listed = new Set(SETTINGS_TABLE.flatMap((r) => (r.variable ? [r.variable] : [])));
    expect([...read].sort()).toEqual([...listed].sort());
  });

  it('every settings key of the schema has its row, with the schema default', () => {
    const schemaKeys = keyPaths().filter((k) => k.path.startsWith('settings.'));
    const rows = new Map(SETTINGS_TABLE.filter((r) => r.key).map((r) => [r.key!, r]));
    expect([...rows.keys()].sort()).toEqual(schemaKeys.map((k) => k.path).sort());
    for (const k of schemaKeys) if (k.default !== undefined) expect(rows.get(k.path)!.default, k.path).toBe(String(k.default));
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) expect(rows.get(`settings.${key}`)?.default, key).toContain(String(value));
  });

  it("README's Settings section is exactly SETTINGS_TABLE", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Settings'), readme.indexOf('\n## ', readme.indexOf('## Settings') + 1));
    const table = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .join('\n');
    expect(table).toBe(renderSettingsTable());
  });

  it('takes defaults, then the target file, then the environment', () => {
    const target = { settings: { ...DEFAULT_SETTINGS, runs: 40, seed: 7 } };
    expect(runSettings({ CI: '1' })).toMatchObject({
      runs: 25,
      seed: CI_SEED,
      shrink: true,
      reportDir: 'reports',
      workers: 6,
      targetFile: undefined,
    });
    expect(runSettings({ CI: '1' }, target)).toMatchObject({ runs: 40, seed: 7 });
    expect(runSettings({ CONFORMANCE_DEPTH: 'nightly' }, target).runs).toBe(100);
    expect(
      runSettings(
        {
          CONFORMANCE_RUNS: '3',
          CONFORMANCE_SEED: '11',
          CONFORMANCE_SHRINK: '0',
          CONFORMANCE_REPORT_DIR: 'out',
          CONFORMANCE_WORKERS: '2',
          CONFORMANCE_TARGET: 't.yaml',
          CONFORMANCE_DEPTH: 'quick',
        },
        target,
      ),
    ).toMatchObject({
      runs: 3,
      seed: 11,
      shrink: false,
      reportDir: 'out',
      workers: 2,
      targetFile: 't.yaml',
    });
    expect(() => runSettings({ CONFORMANCE_RUNS: 'many' })).toThrow('CONFORMANCE_RUNS must be a positive integer, got "many"');
    expect(() => runSettings({ CONFORMANCE_WORKERS: '0' })).toThrow('CONFORMANCE_WORKERS');
  });

  it("reads the fault run's variables", () => {
    expect(faultRunSettings({})).toEqual({
      faults: [],
      area: undefined,
      concurrency: undefined,
      skipClean: false,
      skipDegenerate: false,
      degenerate: [],
      precision: { day: expect.any(Number) },
    });
    expect(
      faultRunSettings({
        FAULTS: 'a, b',
        AREA: 'invest',
        FAULT_BATCH: '3',
        FAULT_PARALLEL: '2',
        SKIP_CLEAN: '1',
        SKIP_DEGENERATE: '1',
        DEGENERATE: 'x',
        PRECISION: '2/8',
      }),
    ).toEqual({
      faults: ['a', 'b'],
      area: 'invest',
      batchSize: 3,
      parallel: 2,
      skipClean: true,
      skipDegenerate: true,
      degenerate: ['x'],
      precision: { part: 2, of: 8 },
    });
    expect(faultRunSettings({ PRECISION: 'full' }).precision).toBe('full');
    // A business fault runs the area's whole 1,800-test suite: its daily share is cut finer.
    expect([precisionParts('business'), precisionParts('insurance')]).toEqual([14, 4]);
    expect(() => faultRunSettings({ PRECISION: '8/8' })).toThrow(/^SETTING_INVALID: PRECISION must be full, off, or k\/n/);
  });
});
