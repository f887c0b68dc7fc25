/**
 * The suite run as a user runs it: twice against one standalone sandbox, against a production-kind
 * target, against a target nobody listens on, and with a broken target file (refused, writing nothing:
 * e2e/reports.test.ts holds a refused run to the last run's reports). (A run with a fault, how its
 * failure is printed and evidenced, is in cli/cli.test.ts beside the diff of the same run.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { QUICK_RUN, ROOT, runSuite, tempDir } from '../helpers.ts';
import { closedPort, recordingServer } from '../robustness/_servers.ts';

const INSURANCE = ['suites/insurance/'];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

/** Starts `npm run sandbox` on a free port and resolves with the target file it wrote. */
function startCliSandbox(): Promise<string> {
  const target = join(tempDir(), 'target.yaml');
  const args = ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--target-out', target];
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

describe('the suite against a standalone sandbox', () => {
  let target: string;
  beforeAll(async () => {
    target = await startCliSandbox();
  });

  it('passes twice in a row against one long-lived sandbox, as the default run does', async () => {
    for (const round of [1, 2]) {
      const run = await runSuite({ env: { ...QUICK_RUN, CONFORMANCE_TARGET: target }, files: INSURANCE });
      expect(run.code, `round ${round}: ${run.stdout.slice(-2000)}`).toBe(0);
      expect(run.summary?.counts.failed).toBe(0);
      expect(run.summary?.counts.passed).toBeGreaterThan(40);
    }
  });

  it('the safety gate on a production target skips every surrender test with the gate as its reason, sends nothing, and says that nothing was checked', async () => {
    // The sandbox's insurance section (every token a test could want), pointed at a server that records what reaches it.
    const server = await recordingServer();
    try {
      const sandboxTarget = parse(readFileSync(target, 'utf8')) as { services: { insurance: { url: string } } };
      const url = new URL(sandboxTarget.services.insurance.url);
      const file = join(tempDir(), 'production.yaml');
      writeFileSync(
        file,
        stringify({
          ...sandboxTarget,
          name: 'prod',
          kind: 'production',
          areas: ['insurance'],
          services: { insurance: { ...sandboxTarget.services.insurance, url: `${server.base}${url.pathname}` } },
        }),
      );
      const run = await runSuite({ env: { ...QUICK_RUN, CONFORMANCE_TARGET: file }, files: INSURANCE });
      expect(run.code).toBe(2);
      const tests = run.summary!.tests;
      expect(tests.length).toBeGreaterThan(40);
      expect(tests.filter((t) => t.verdict !== 'skipped' && t.verdict !== 'inconclusive')).toEqual([]);
      for (const t of tests) expect(t.skipReason).toMatch(/safety gate: .* kind production \(read only\)|allowBursts/);
      expect(server.arrivals).toEqual([]);
      expect(run.stdout).toContain('skipped (');
      expect(run.stdout).toContain('nothing was checked: the safety gate refused everything for this target kind');
    } finally {
      await server.close();
    }
  });
});

describe('bad targets', () => {
  it('a service nobody listens on is found once, before its tests, which end as tool errors (exit 2) sending nothing, not contract failures', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const file = join(tempDir(), 'down.yaml');
    writeFileSync(
      file,
      stringify({ name: 'down', kind: 'staging', areas: ['insurance'], services: { insurance: { url, token: 'tok-unreachable' } } }),
    );
    const run = await runSuite({ env: { ...QUICK_RUN, CONFORMANCE_TARGET: file }, files: INSURANCE });
    expect(run.code).toBe(2);
    const tests = run.summary!.tests;
    const ran = tests.filter((t) => t.verdict !== 'skipped' && t.verdict !== 'inconclusive');
    expect(ran.length).toBeGreaterThan(40);
    for (const t of ran) {
      expect(t.verdict).toBe('error');
      expect(t.code).toBe('TARGET_UNREACHABLE');
      expect(t.message).toContain(`TARGET_UNREACHABLE: ${url} could not be reached (ECONNREFUSED`);
    }
    // Found by the probe, not by each test's own request: no test sent anything or waited for an answer.
    for (const t of ran) expect(t.message).toContain('found by the reachability probe before the run; no request of this test was sent');
    const testTime = ran.reduce((sum, t) => sum + t.durationMs, 0);
    expect(run.summary!.counts.contractFailures).toBe(0);
    expect(run.stdout).toMatch(/conformance: 0 passed, \d+ failed, \d+ skipped\ntool errors: \d+ \(TARGET_UNREACHABLE \d+\)/);
    expect(readFileSync(join(run.reportDir, 'junit.xml'), 'utf8')).toContain('<error type="TARGET_UNREACHABLE"');
    console.log(
      `[e2e] unreachable: wall ${(run.wallMs / 1000).toFixed(1)} s, summed test time ${(testTime / 1000).toFixed(1)} s, ${ran.length} tool errors`,
    );
  });

  it('a broken target file stops the run at once, naming the file and the key', async () => {
    const file = join(tempDir(), 'broken.yaml');
    writeFileSync(
      file,
      'name: broken\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${PC_NOT_SET_ANYWHERE}" }\n',
    );
    const run = await runSuite({ env: { CONFORMANCE_TARGET: file }, files: INSURANCE });
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain(
      `${file}: key "services.insurance.token" refers to environment variable \${PC_NOT_SET_ANYWHERE}`,
    );
    // Stopped before vitest started: no vitest output, no stack trace, and nothing written (a last run's reports would be left as they were).
    expect(run.stdout + run.stderr).not.toMatch(/RUN\s+v\d|\n\s+at /);
    expect(readdirSync(run.reportDir)).toEqual([]);
  });
});
