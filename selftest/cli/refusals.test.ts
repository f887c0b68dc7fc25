/**
 * What the command line refuses before a run starts, each with one line that names what the user typed
 * and exit 2: an unknown option (with a "did you mean", never vitest's CACError stack trace), a setting
 * whose value cannot be used (SETTING_INVALID, not TARGET_FILE_INVALID), areas the target file does not
 * check, a report folder that cannot be made or written, a target or waiver file that is not a regular file. A report folder that fails only when the
 * reports are written (vitest run directly) ends the run with one line instead of spinning. `certify`
 * against a target where nothing can run writes a pack that says NOT CERTIFIABLE and exits 1, as README
 * promises a certifier (2 means no pack).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { Manifest } from '../../harness/certify/manifest.ts';
import { readJson, runCli } from '../certify/_cli.ts';
import { CLI, HANG_MS, ROOT, tempDir } from '../helpers.ts';

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: HANG_MS,
    env: {
      ...process.env,
      NO_COLOR: '1',
      CONFORMANCE_REPORT_DIR: tempDir('pc-report-'),
      CONFORMANCE_SEED: '',
      CONFORMANCE_AREAS: '',
      ...env,
    },
  });

/** One line on stderr, exit 2, and nothing of vitest (no run, no stack trace). */
function expectOneLine(out: ReturnType<typeof cli>, line: string | RegExp): void {
  expect(out.status, out.stdout + out.stderr).toBe(2);
  const lines = out.stderr.trim().split('\n');
  expect(lines[0]).toMatch(typeof line === 'string' ? new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : line);
  expect(out.stdout + out.stderr).not.toMatch(/CACError|RUN\s+v\d|\n\s+at /);
}

function insuranceOnly(): string {
  const file = join(tempDir('pc-refusals-'), 'target.yaml');
  writeFileSync(
    file,
    stringify({
      name: 'insurance-only',
      kind: 'staging',
      areas: ['insurance'],
      services: { insurance: { url: 'http://127.0.0.1:9', token: 'refusals-token' } },
    }),
  );
  return file;
}

describe('unknown options', () => {
  it('run: one line with the option it most likely meant, before vitest starts', () => {
    expectOneLine(
      cli(['run', '--depht', 'quick']),
      'partner-conformance run: unknown option --depht; did you mean --depth? (--help lists the options)',
    );
    expectOneLine(
      cli(['run', '--sede=3']),
      'partner-conformance run: unknown option --sede; did you mean --seed? (--help lists the options)',
    );
    expectOneLine(
      cli(['run', '--bial', '1']),
      'partner-conformance run: unknown option --bial; did you mean --bail? (--help lists the options)',
    );
    expectOneLine(
      cli(['run', '--nothing-like-it']),
      'partner-conformance run: unknown option --nothing-like-it (--help lists the options)',
    );
  });

  it('certify, merge and diff the same way', () => {
    expectOneLine(
      cli(['certify', '--keey', 'k.pem']),
      'partner-conformance certify: unknown option --keey; did you mean --key? (--help lists the options)',
    );
    expectOneLine(
      cli(['merge', '--reprots', 'x']),
      'partner-conformance merge: unknown option --reprots; did you mean --reports? (--help lists the options)',
    );
    expectOneLine(
      cli(['diff', 'a', 'b', '--rerum', 'x']),
      'partner-conformance diff: unknown option --rerum; did you mean --rerun? (--help lists the options)',
    );
  });
});

describe('settings that cannot be used: SETTING_INVALID, named as the user gave them', () => {
  it('a flag by the flag, a variable by the variable', () => {
    expectOneLine(cli(['run', '--seed', 'abc']), 'partner-conformance run: SETTING_INVALID: --seed must be an integer, got "abc"');
    expectOneLine(
      cli(['run', '--areas', 'bussiness']),
      /^partner-conformance run: SETTING_INVALID: --areas: unknown area "bussiness"; the areas are /,
    );
    const reports = tempDir('pc-report-');
    const byVariable = cli(['run'], { CONFORMANCE_SEED: 'abc', CONFORMANCE_REPORT_DIR: reports });
    expectOneLine(byVariable, 'partner-conformance: SETTING_INVALID: CONFORMANCE_SEED must be an integer, got "abc"');
    // Refused before it started: nothing written (the last run's reports, if any, stay as they were).
    expect(readdirSync(reports)).toEqual([]);
  });

  it('areas the target file does not check are named, with the areas it does', () => {
    const target = insuranceOnly();
    const line = (name: string) =>
      `partner-conformance: SETTING_INVALID: ${name} names business, which target file "insurance-only" does not check (its areas: insurance)`;
    expectOneLine(cli(['run', '--target', target], { CONFORMANCE_AREAS: 'business' }), line('CONFORMANCE_AREAS'));
    expectOneLine(cli(['run', '--target', target, '--areas', 'business,insurance']), line('--areas'));
  });
});

describe('a file that is not a regular file', () => {
  it('a target or waiver file that is a named pipe, a folder or a device: one line naming what it is, at once (a pipe once held the run for ever)', () => {
    const dir = tempDir('pc-refusals-');
    const fifo = join(dir, 'target.yaml');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expectOneLine(
      cli(['run', '--target', fifo]),
      `partner-conformance: TARGET_FILE_INVALID: ${fifo}: is a named pipe (FIFO), not a regular file`,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expectOneLine(cli(['run', '--target', dir]), `partner-conformance: TARGET_FILE_INVALID: ${dir}: is a folder, not a regular file`);
    expectOneLine(
      cli(['run', '--target', '/dev/zero']),
      'partner-conformance: TARGET_FILE_INVALID: /dev/zero: is a character device, not a regular file',
    );
    expectOneLine(
      cli(['run', '--target', insuranceOnly(), '--waivers', fifo]),
      `partner-conformance: TARGET_FILE_INVALID: waiver file ${fifo}: is a named pipe (FIFO), not a regular file`,
    );
  }, 120_000);
});

describe('a report folder that cannot be made or written', () => {
  it('is refused before the run, in one line, and nothing is written (a virtual file system once made the run spin)', () => {
    expectOneLine(
      cli(['run', '--reports', '/proc/pc-conformance-reports']),
      'partner-conformance run: SETTING_INVALID: --reports: /proc/pc-conformance-reports cannot be created (ENOENT); the run did not start and wrote no report',
    );
    const file = join(tempDir('pc-report-'), 'not-a-folder');
    writeFileSync(file, '');
    // Once an EEXIST stack trace and exit 1, which means a contract failure.
    expectOneLine(
      cli(['run'], { CONFORMANCE_REPORT_DIR: file }),
      `partner-conformance run: SETTING_INVALID: CONFORMANCE_REPORT_DIR: ${file} is a file (or lies under one), not a folder; the run did not start and wrote no report`,
    );
    expectOneLine(
      cli(['run'], { CONFORMANCE_REPORT_DIR: join(file, 'under') }),
      /CONFORMANCE_REPORT_DIR: .*under is a file \(or lies under one\), not a folder/,
    );
  });

  it('certify --out the same way: exit 2, no pack', () => {
    expectOneLine(
      cli(['certify', '--target', insuranceOnly(), '--out', '/proc/pc-conformance-pack']),
      'partner-conformance certify: /proc/pc-conformance-pack cannot be created (ENOENT)',
    );
  });

  it('that fails only when the reports are written (vitest run directly) ends the run with one line and exit 2, never spinning', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--config',
        'vitest.config.ts',
        'suites/insurance/limits.test.ts',
        '-t',
        'INS-LIM-001',
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: HANG_MS,
        env: {
          ...process.env,
          NO_COLOR: '1',
          CONFORMANCE_REPORT_DIR: '/proc/pc-conformance-reports',
          CONFORMANCE_WORKERS: '1',
          CONFORMANCE_TARGET: '',
        },
      },
    );
    expect(run.signal, 'killed at the timeout: the run did not end by itself').toBeNull();
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'partner-conformance: SETTING_INVALID: the reports could not be written to /proc/pc-conformance-reports (ENOENT)',
    );
    expect(run.stdout).toContain('conformance: 2 passed, 0 failed, 0 skipped');
  });
});

describe('certify where nothing can run', () => {
  it('writes a pack that says NOT CERTIFIABLE and exits 1 (README: 0 certifiable, 1 not, 2 the run could not start)', async () => {
    const out = join(tempDir('pc-pack-'), 'certification');
    // The whole suite is collected (certify takes no files), so this takes a certify run's minutes.
    const run = await runCli(['certify', '--target', insuranceOnly(), '--out', out, '--depth', 'quick']);
    expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(1);
    expect(run.stdout).toContain('certification: NOT CERTIFIABLE');
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    expect(readJson<Manifest>(join(out, 'manifest.json')).verdict.certifiable).toBe(false);
  });
});
