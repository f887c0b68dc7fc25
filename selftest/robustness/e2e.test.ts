/**
 * The insurance area, run as a user runs it, against targets that misbehave: a target that never
 * answers, answers of 10 MB. Each run ends, in bounded time and memory, with every test that ran reported
 * as a tool error with its code: never a pass, never a contract failure. The figures each row measured
 * are printed for the closing note. (A body that drips: run-wide.test.ts; a service nobody listens on:
 * e2e/runs.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RunSummary } from '../../harness/report/summary-reporter.ts';
import { QUICK_RUN, runSuite, tempDir, type SuiteRun } from '../helpers.ts';
import { canSampleMemory, sampleMemory } from './_memory.ts';
import { hugeServer, silentServer, trackedServers } from './_servers.ts';

const INSURANCE = ['suites/insurance'];
const { track, closeAll } = trackedServers();
afterEach(closeAll);

function targetFile(name: string, url: string): string {
  const file = join(tempDir('pc-robust-'), `${name}.yaml`);
  writeFileSync(
    file,
    stringify({ name, kind: 'staging', areas: ['insurance'], services: { insurance: { url, token: 'robustness-e2e-token' } } }),
  );
  return file;
}

type TestRecord = RunSummary['tests'][number];

/** The tool-error code of a test: the summary's own, or the code its message starts with. */
const codeOf = (t: TestRecord) => t.code ?? /^([A-Z_]+):/.exec(t.message ?? '')?.[1];
const verdictOf = (t: TestRecord) => t.verdict;

/** Every test either skipped (it cannot run here) or a tool error with `code`; at least `atLeast` of the latter. */
function expectAllToolErrors(run: SuiteRun, code: string, atLeast: number): TestRecord[] {
  expect(run.summary, `no summary; output: ${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}`).toBeDefined();
  const tests = run.summary!.tests as TestRecord[];
  const ran = tests.filter((t) => t.verdict !== 'skipped' && t.verdict !== 'inconclusive');
  expect(tests.filter((t) => t.verdict === 'passed' || t.verdict === 'warning')).toEqual([]);
  for (const t of ran) {
    expect(verdictOf(t), `${t.title}: ${t.message}`).toBe('error');
    expect(codeOf(t), `${t.title}: ${t.message}`).toBe(code);
  }
  expect(ran.length).toBeGreaterThanOrEqual(atLeast);
  expect(run.code).not.toBe(0);
  return ran;
}

function report(row: string, figures: Record<string, unknown>): void {
  console.log(
    `[robustness e2e] ${row}: ${Object.entries(figures)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describe('the insurance area against a misbehaving target', () => {
  it('a target that never answers: the run waits out three deadlines (and those already on their way), not one per test; TARGET_TIMEOUT on each test', async () => {
    const server = await track(silentServer());
    const run = await runSuite({
      // Two workers: each waits out the deadlines of its own tests.
      env: { ...QUICK_RUN, CONFORMANCE_WORKERS: '2', CONFORMANCE_TARGET: targetFile('silent', server.base) },
      files: INSURANCE,
    });
    const ran = expectAllToolErrors(run, 'TARGET_TIMEOUT', 40);
    // Bounded by what it waits for, not by the clock: a few deadlines in the whole run (three, and the requests
    // already on their way when the third came), never one per test.
    const waited = ran.filter((t) => !/not sent;/.test(t.message ?? ''));
    expect(waited.length).toBeLessThanOrEqual(5);
    expect(ran.filter((t) => /not sent; gave up on .* after \d+ consecutive failures/.test(t.message ?? '')).length).toBeGreaterThan(30);
    report('never answers', {
      wall: seconds(run.wallMs),
      'tool errors': ran.length,
      'requests that reached the target': server.arrivals.length,
    });
  });

  it.skipIf(!canSampleMemory)('answers of 10 MB: every test TARGET_RESPONSE_TOO_LARGE, the whole run under 600 MB RSS', async () => {
    const server = await track(hugeServer(10 * 1000 * 1000));
    let sampler: ReturnType<typeof sampleMemory> | undefined;
    const run = await runSuite({
      env: { ...QUICK_RUN, CONFORMANCE_TARGET: targetFile('huge', server.base) },
      files: INSURANCE,
      onStart: (pid) => (sampler = sampleMemory(pid)),
    });
    const peak = sampler!.stop();
    const ran = expectAllToolErrors(run, 'TARGET_RESPONSE_TOO_LARGE', 40);
    // The run's workers are threads of the vitest process (vitest.config.ts): the bound is the whole tree's.
    expect(peak.treeMiB).toBeLessThan(600);
    report('10 MB answers', {
      wall: seconds(run.wallMs),
      'tool errors': ran.length,
      'peak RSS of one process': `${peak.processMiB} MiB`,
      'peak RSS of the whole tree': `${peak.treeMiB} MiB over ${peak.processes} processes`,
      'requests that reached the target': server.arrivals.length,
    });
  });
});
