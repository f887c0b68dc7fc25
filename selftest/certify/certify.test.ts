/**
 * `certify` as a certification team runs it, against a standalone sandbox (mission: insurance, to keep
 * each run short) started with one fault: the pack says not certifiable, names the one requirement the
 * fault breaks, and shows the failure; with a waiver for that failure it is certifiable with the waiver
 * listed (so everything else passed: the clean sandbox certifies), verify accepts it, and verify names
 * a file changed by one byte; with the waiver expired it is not certifiable; a bad waiver file stops the
 * run. Waivers apply in the everyday run too. (A whole certify run of the embedded sandbox takes minutes;
 * the pack's parts have their own unit tests in pack.test.ts.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../harness/certify/manifest.ts';
import type { RunSummary } from '../../harness/report/records.ts';
import { tempDir } from '../helpers.ts';
import { CERTIFY_RUNS, insuranceSandbox, keyPair, readJson, runCli, type MissionSandbox } from './_cli.ts';

const FAULT = 'ins-surrender-max-999';
const FAILING_ROW = 'surrender array of 1000 item(s) is accepted';
const keys = keyPair();

async function certify(sandbox: MissionSandbox, extra: string[] = []) {
  const out = join(tempDir('pc-pack-'), 'certification');
  const run = await runCli([
    'certify',
    '--target',
    sandbox.targetFile,
    '--out',
    out,
    '--key',
    keys.keyFile,
    '--certifier',
    'selftest',
    ...CERTIFY_RUNS,
    ...extra,
  ]);
  return {
    ...run,
    out,
    manifest: () => readJson<Manifest>(join(out, 'manifest.json')),
    results: () => readJson<RunSummary>(join(out, 'results.json')),
    html: () => readFileSync(join(out, 'report.html'), 'utf8'),
  };
}

const verify = (dir: string) => runCli(['certify', 'verify', dir, '--public-key', keys.publicKeyFile]);

function waiverFile(dir: string, content: string): string {
  const file = join(dir, 'waivers.yaml');
  writeFileSync(file, content);
  return file;
}

function waivers(dir: string, expires: string): string {
  return waiverFile(
    dir,
    `waivers:\n  - requirement: INS-LIM-003\n    row: "surrender array of 1000*"\n    reason: "off by one at the upper limit; fix in release 4.2"\n    owner: "partner QA"\n    expires: ${expires}\n  - { requirement: INS-LIM-001, reason: "no longer needed", owner: "partner QA", expires: 2099-12-31 }\n`,
  );
}

describe(`certify against a sandbox with the fault ${FAULT}`, () => {
  let sandbox: MissionSandbox;
  beforeAll(async () => {
    sandbox = await insuranceSandbox([FAULT]);
  });
  afterAll(() => sandbox?.stop());

  it('says not certifiable, why, and shows the failure whole in report.html', async () => {
    const run = await certify(sandbox);
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    expect(run.stdout).toContain(
      'certification: NOT CERTIFIABLE\n  - 1 defect(s): INS-LIM-003: expected status 201, received status 400 (1 test(s))\n  - 1 blocking requirement(s) failed: INS-LIM-003 [spec]',
    );
    expect(run.manifest().verdict.certifiable).toBe(false);
    const html = run.html();
    expect(html).toContain('<h1>NOT CERTIFIABLE</h1>');
    expect(html).toContain(`INS-LIM-003 §8 ${FAILING_ROW}`);
    expect(html).toMatch(/Expected: status 201\n\s+Received: status 400\n\s+Response: HTTP 400[^\n]*\n\s+Reproduce: curl -sS -i -X POST/);
    expect(html).not.toContain('dev-insurance-token');
    expect((await verify(run.out)).code).toBe(0);
  });

  it('with a waiver for the failure, certifiable with the waiver listed; verify accepts the pack and names a file changed by one byte', async () => {
    waivers(sandbox.dir, '2099-12-31');
    const run = await certify(sandbox);
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(run.stdout).toContain('certification: CERTIFIABLE');
    const manifest = run.manifest();
    expect(manifest.verdict).toMatchObject({ certifiable: true, reasons: [] });
    expect(manifest.target).toMatchObject({ areas: ['insurance'], source: 'target.yaml' });
    expect(manifest.run).toMatchObject({ depth: 'quick', runs: 5, seed: 20261121 });
    expect(manifest.certifiedBy).toBe('selftest');
    expect(manifest.spec).toHaveProperty('sha256');
    expect(JSON.stringify(manifest.target.file)).toContain('"token":"***"');
    expect(run.html()).toContain('<h1>CERTIFIABLE</h1>');
    expect(manifest.waivers?.file).toBe('waivers.yaml');
    expect(manifest.waivers?.uses.map((u) => [u.requirement, u.status, u.tests.length])).toEqual([
      ['INS-LIM-003', 'applied', 1],
      ['INS-LIM-001', 'unused', 0],
    ]);
    expect(manifest.counts).toMatchObject({ waived: 1, contractFailures: 0 });
    expect(run.results().tests.find((t) => t.title.endsWith(FAILING_ROW))).toMatchObject({
      verdict: 'waived',
      waiver: { requirement: 'INS-LIM-003', owner: 'partner QA' },
    });
    const html = run.html();
    expect(html).toContain('Waivers (waivers.yaml)');
    expect(html).toContain('off by one at the upper limit; fix in release 4.2');
    expect(html).toMatch(/<h2>Waived failures \(1\)<\/h2>/);

    const accepted = await verify(run.out);
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(accepted.stdout).toContain('pack accepted');
    const path = join(run.out, 'results.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"passed"', '"passeD"'));
    const altered = await verify(run.out);
    expect(altered.code).toBe(1);
    expect(altered.stdout).toMatch(/PROBLEM {2}results\.json: altered: sha256/);
  });

  it('with the waiver expired, not certifiable, and the failure says its waiver expired', async () => {
    waivers(sandbox.dir, '2020-01-01');
    const run = await certify(sandbox);
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    expect(run.stdout).toContain('1 blocking requirement(s) failed: INS-LIM-003 [spec] (its waiver expired)');
    expect(run.manifest().waivers?.uses[0]).toMatchObject({ status: 'expired', tests: [expect.stringContaining(FAILING_ROW)] });
    expect(run.html()).toContain('Expired waiver, no longer waives:');
  });

  it('an invalid waiver file stops the run at once: exit 2, one short message, no pack', async () => {
    waiverFile(sandbox.dir, 'waivers:\n  - { requirement: INS-LIM-003, reason: r, owner: o, expires: someday }\n');
    const run = await certify(sandbox);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`waiver file ${join(sandbox.dir, 'waivers.yaml')}: entry 1.expires: must be a date, yyyy-mm-dd`);
    expect(run.stdout + run.stderr).not.toMatch(/RUN\s+v\d|\n\s+at /);
  });

  it('without a target it starts the embedded sandbox, as npm test does, and stops it again when the run cannot start', async () => {
    const bad = waiverFile(tempDir(), 'waivers: []\nextra: 1\n');
    const run = await runCli(['certify', '--out', join(tempDir('pc-pack-'), 'certification'), '--waivers', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`waiver file ${bad}: (top level): unknown key "extra"`);
  });

  it('waivers apply in the everyday run too (npm test): waived, counted apart, exit 0', async () => {
    const file = waivers(tempDir(), '2099-12-31');
    const reports = tempDir('pc-report-');
    const run = await runCli([
      'run',
      '--target',
      sandbox.targetFile,
      '--waivers',
      file,
      '--reports',
      reports,
      'suites/insurance/limits.test.ts',
    ]);
    expect(run.code, run.stdout.slice(-3000)).toBe(0);
    expect(run.stdout).toMatch(/conformance: \d+ passed, 0 failed, 0 skipped\nwaived: 1 \(waivers\.yaml; not passes\)/);
    expect(run.stdout).toContain('? unused, matched no failure: waiver 2 (INS-LIM-001)');
    const summary = readJson<RunSummary>(join(reports, 'conformance.json'));
    expect(summary.counts.waived).toBe(1);
    expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toContain(
      '<skipped message="waived: waiver 1 (INS-LIM-003 rows &quot;surrender array of 1000*&quot;), owner partner QA',
    );
  });
});
