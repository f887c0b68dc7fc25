/**
 * The suite run as a user runs it: against a standalone sandbox (twice, and with a fault), against a
 * production-kind target, against an unreachable target, and with a broken target file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ROOT, runSuite, tempDir } from '../helpers.ts';

const INSURANCE = ['suites/insurance/'];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

/** Starts `npm run sandbox` on a free port and resolves with the target file it wrote. */
function startCliSandbox(faults: string[] = []): Promise<string> {
  const target = join(tempDir(), 'target.yaml');
  const args = ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--target-out', target, ...(faults.length ? ['--faults', faults.join(',')] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('target file:')) resolve(target);
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
  });
}

const ids = (tests: Array<{ requirement?: string }>) => new Set(tests.map((t) => t.requirement));

describe('the suite against a standalone sandbox', () => {
  it('passes twice in a row against one long-lived sandbox, as the default run does', async () => {
    const target = await startCliSandbox();
    for (const round of [1, 2]) {
      const run = await runSuite({ env: { CONFORMANCE_TARGET: target }, files: INSURANCE });
      expect(run.code, `round ${round}: ${run.stdout.slice(-2000)}`).toBe(0);
      expect(run.summary?.counts.failed).toBe(0);
      expect(run.summary?.counts.passed).toBeGreaterThan(40);
    }
  }, 240_000);

  it('fails on the requirement of a fault the sandbox was started with', async () => {
    const target = await startCliSandbox(['ins-contract-id-unbounded']);
    const run = await runSuite({ env: { CONFORMANCE_TARGET: target }, files: ['suites/insurance/limits.test.ts'] });
    expect(run.code).not.toBe(0);
    const failed = run.summary!.tests.filter((t) => t.verdict === 'failed');
    expect([...ids(failed)]).toEqual(['INS-LIM-002']);
    expect(failed[0].message).toMatch(/Expected: rejected with one of 400, 422\n\s+Received: accepted with 201/);
    // Printed once, in the project's words, with one set of counts: not vitest's failure block, stack or counts.
    expect(run.stdout.split('Received: accepted with 201').length - 1).toBe(1);
    expect(run.stdout).not.toMatch(/Failed Tests|Tests {2,}\d|\bat .*harness\/suite\.ts/);
    expect(run.stdout).toMatch(/ ✗ suites\/insurance\/limits\.test\.ts \(\d+ tests: \d+ passed, 1 failed, 0 skipped\)/);
    expect(run.stdout).toMatch(/\nconformance: \d+ passed, 1 failed, 0 skipped\n/);
    // Its evidence: the exchange the failure is about, in the run's HAR, where a HAR reader finds it.
    expect(run.summary!.evidence?.files.map((f) => f.file)).toEqual(['evidence/insurance.har']);
    const entries = JSON.parse(readFileSync(join(run.reportDir, 'evidence/insurance.har'), 'utf8')).log.entries as Array<{ _id: string; request: { method: string; headers: unknown[] }; response: { status: number } }>;
    const cited = failed[0].evidence!.map((ref) => entries.find((e) => `evidence/insurance.har#${e._id}` === ref)!);
    expect(cited.filter((e) => e.request.method === 'POST' && e.response.status === 201)).not.toEqual([]);
    expect(cited[0].request.headers).toEqual(expect.arrayContaining([{ name: 'authorization', value: 'Bearer ***' }]));
    for (const t of run.summary!.tests) expect(t.evidence?.length, t.title).toBeGreaterThan(0);
  }, 120_000);
});

describe('the safety gate on a production target', () => {
  it('skips every surrender test with the gate as its reason, sending nothing, and says that nothing was checked', async () => {
    const sandboxTarget = parse(readFileSync(await startCliSandbox(), 'utf8'));
    const file = join(tempDir(), 'production.yaml');
    writeFileSync(file, stringify({ ...sandboxTarget, name: 'prod', kind: 'production', areas: ['insurance'] }));
    const run = await runSuite({ env: { CONFORMANCE_TARGET: file }, files: INSURANCE });
    expect(run.code).toBe(2);
    const tests = run.summary!.tests;
    expect(tests.length).toBeGreaterThan(40);
    expect(tests.filter((t) => t.verdict !== 'skipped' && t.verdict !== 'inconclusive')).toEqual([]);
    for (const t of tests) expect(t.skipReason).toMatch(/safety gate: .* kind production \(read only\)|allowBursts/);
    expect(run.stdout).toContain('skipped (');
    expect(run.stdout).toContain('nothing was checked: the safety gate refused everything for this target kind');
  }, 120_000);
});

describe('bad targets', () => {
  it('an unreachable target is found once, before its tests, which end as tool errors (exit 2), not contract failures', async () => {
    const file = join(tempDir(), 'down.yaml');
    writeFileSync(file, stringify({ name: 'down', kind: 'staging', services: { insurance: { url: 'http://127.0.0.1:9', token: 'tok-unreachable' } } }));
    const run = await runSuite({ env: { CONFORMANCE_TARGET: file }, files: ['suites/insurance/limits.test.ts'], timeoutMs: 90_000 });
    expect(run.code).toBe(2);
    const tests = run.summary!.tests;
    expect(tests.length).toBeGreaterThan(0);
    for (const t of tests) {
      expect(t.verdict).toBe('error');
      expect(t.code).toBe('TARGET_UNREACHABLE');
      expect(t.message).toMatch(/TARGET_UNREACHABLE: http:\/\/127\.0\.0\.1:9 could not be reached \(ECONNREFUSED/);
    }
    expect(run.summary!.counts.contractFailures).toBe(0);
    expect(run.stdout).toMatch(/conformance: 0 passed, \d+ failed, 0 skipped\ntool errors: \d+ \(TARGET_UNREACHABLE \d+\)/);
    expect(readFileSync(join(run.reportDir, 'junit.xml'), 'utf8')).toContain('<error type="TARGET_UNREACHABLE"');
  }, 120_000);

  it('a broken target file stops the run at once, naming the file and the key', async () => {
    const file = join(tempDir(), 'broken.yaml');
    writeFileSync(file, 'name: broken\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${PC_NOT_SET_ANYWHERE}" }\n');
    const run = await runSuite({ env: { CONFORMANCE_TARGET: file }, files: INSURANCE });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(`${file}: key "services.insurance.token" refers to environment variable \${PC_NOT_SET_ANYWHERE}`);
    // Stopped before vitest started: no vitest output, no stack trace; reports say the run errored.
    expect(run.stdout + run.stderr).not.toMatch(/RUN\s+v\d|\n\s+at /);
    expect(run.summary?.status).toBe('errored');
    expect(readFileSync(join(run.reportDir, 'junit.xml'), 'utf8')).toContain('<error type="TARGET_FILE_MISSING_VARIABLE"');
  }, 60_000);
});
