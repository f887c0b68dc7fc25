/**
 * Runs of the insurance area as a user runs them, against targets that once made a run go wrong:
 * - a slow but healthy target (its first answer takes 7 s, well within `timeoutMs: 30000`) whose GET of
 *   the base URL never answers: its tests run and pass (the reachability probe once decided with one GET
 *   of its own, within a fixed 5 s, and every test ended TARGET_TIMEOUT unsent);
 * - a target that answers 429 with Retry-After: 3600: one request reaches it, every test is a
 *   TARGET_RATE_LIMITED tool error, the rate-limit tests included, never a contract failure (once 162
 *   requests went out in 20 s, and the burst's 429s failed INS-RAT-001/002);
 * - a target that drips its body, one byte a second: at the default deadline the run ends in under 3
 *   minutes, given up on after three deadlines in the whole run, across files and workers, and sent no
 *   burst (once three deadlines per file, then a 40-request burst).
 */
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RunSummary } from '../../harness/report/records.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { QUICK_RUN, runSuite, tempDir, type SuiteRun } from '../helpers.ts';
import { dripServer, faultServer, tooManyServer, trackedServers } from './_servers.ts';

const { track, closeAll } = trackedServers();
afterEach(closeAll);

function targetFile(name: string, insurance: Record<string, unknown>, settings: Record<string, unknown> = {}): string {
  const file = join(tempDir('pc-run-wide-'), `${name}.yaml`);
  writeFileSync(file, stringify({ name, kind: 'staging', areas: ['insurance'], settings, services: { insurance } }));
  return file;
}

const ran = (run: SuiteRun) => run.summary!.tests.filter((t) => t.verdict !== 'skipped');

function expectToolErrorsOnly(run: SuiteRun, code: string): RunSummary['tests'] {
  expect(run.summary, `no summary; output: ${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`).toBeDefined();
  const tests = ran(run);
  expect(tests.length).toBeGreaterThan(40);
  for (const t of tests) expect([t.verdict, t.code], `${t.title}: ${t.message}`).toEqual(['error', code]);
  expect(run.code).toBe(2);
  return tests;
}

describe('the insurance area, run as a user runs it', () => {
  it('a slow but healthy target whose GET of the base URL hangs is tested, and passes', async () => {
    const sandbox = await startSandbox();
    try {
      const upstream = new URL(sandbox.urls.http);
      let first = true;
      // In front of the sandbox: a GET is never answered; the first POST is answered after 7 s, the rest at once.
      const proxy = await track(
        faultServer(() => (req, res) => {
          if (req.method === 'GET') return;
          const delay = first ? 7_000 : 0;
          first = false;
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () =>
            setTimeout(() => {
              const out = request(
                { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
                (answer) => {
                  res.writeHead(answer.statusCode ?? 502, answer.headers);
                  answer.pipe(res);
                },
              );
              out.end(Buffer.concat(chunks));
            }, delay),
          );
        }),
      );
      const insurance = sandbox.targetDocument().services as { insurance: { url: string } & Record<string, unknown> };
      const url = insurance.insurance.url.replace(upstream.origin, proxy.base);
      const file = targetFile('slow', { ...insurance.insurance, url }, { timeoutMs: 30_000 });
      const run = await runSuite({
        env: { ...QUICK_RUN, CONFORMANCE_TARGET: file, CONFORMANCE_WORKERS: '1' },
        files: ['suites/insurance/limits.test.ts', '--grep', 'INS-LIM-001'],
      });
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
      expect(ran(run).map((t) => t.verdict)).toEqual(['passed', 'passed']);
      expect(proxy.arrivals.map((a) => a.method)).toEqual(['POST', 'POST']);
    } finally {
      await sandbox.close();
    }
  });

  it('a target that answers 429 with Retry-After: 3600 gets one request; every test, the rate-limit ones included, is TARGET_RATE_LIMITED', async () => {
    const server = await track(tooManyServer({ 'retry-after': '3600' }));
    const file = targetFile('limited', { url: server.base, token: 'run-wide-token' });
    const run = await runSuite({
      env: { ...QUICK_RUN, CONFORMANCE_TARGET: file, CONFORMANCE_WORKERS: '3' },
      files: ['suites/insurance'],
    });
    const tests = expectToolErrorsOnly(run, 'TARGET_RATE_LIMITED');
    expect(tests.filter((t) => t.requirement?.startsWith('INS-RAT-')).length).toBe(3);
    expect(run.summary!.counts.contractFailures).toBe(0);
    expect(
      tests.filter((t) => /not sent; .* answered 429 asking to wait 3600 s \(Retry-After: 3600\)/.test(t.message ?? '')).length,
    ).toBeGreaterThan(40);
    // Requests already on their way when the first 429 came may arrive; nothing after.
    expect(server.arrivals.length).toBeLessThanOrEqual(3);
    console.log(
      `[robustness run-wide] Retry-After 3600: ${server.arrivals.length} request(s) reached the target, ${tests.length} tool errors, ${(run.wallMs / 1000).toFixed(1)} s`,
    );
  });

  it('a target that drips its body one byte a second is given up on after three deadlines in the whole run, not one per test, and gets no burst', async () => {
    const server = await track(dripServer(1000));
    const file = targetFile('drip', { url: server.base, token: 'run-wide-token' });
    const run = await runSuite({
      env: { ...QUICK_RUN, CONFORMANCE_TARGET: file, CONFORMANCE_WORKERS: '3' },
      files: ['suites/insurance'],
    });
    const tests = expectToolErrorsOnly(run, 'TARGET_TIMEOUT');
    const deadlines = tests.filter(
      (t) => /did not answer in full within its deadline/.test(t.message ?? '') && !/not sent;/.test(t.message ?? ''),
    );
    // Three failures, plus the few requests already on their way (each file used to cost three, and the burst forty).
    expect(deadlines.length).toBeLessThanOrEqual(8);
    expect(server.arrivals.length).toBeLessThanOrEqual(8);
    expect(tests.find((t) => t.requirement === 'INS-RAT-001')?.message).toMatch(/not sent; gave up on .* after \d consecutive failures/);
    console.log(
      `[robustness run-wide] drip: ${server.arrivals.length} request(s) reached the target, ${deadlines.length} deadline(s), ${tests.length} tool errors, ${(run.wallMs / 1000).toFixed(1)} s`,
    );
  });
});
