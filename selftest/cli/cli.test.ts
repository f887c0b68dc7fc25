/**
 * The command-line entry as a user runs it: help for every command, the settings precedence, shards whose
 * merge equals the unsharded run, `diff` between a clean run and a run with a fault, `--only-failed`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../harness/cli/commands.ts';
import { planRun } from '../../harness/cli/run.ts';
import { diffRuns } from '../../harness/report/diff.ts';
import { CLI, ROOT, runSuite, tempDir, type SuiteRun } from '../helpers.ts';

const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('help', () => {
  it('--help lists every command, and each command\'s --help lists its options', () => {
    const top = cli('--help');
    expect(top.status).toBe(0);
    for (const c of COMMANDS) expect(top.stdout).toContain(`  ${c.name}`);
    for (const c of COMMANDS) {
      const own = cli(c.name, '--help');
      expect(own.status, c.name).toBe(0);
      expect(own.stdout).toContain(`usage: ${c.usage}`);
      for (const o of c.options) expect(own.stdout).toContain(o.flag);
    }
  });

  it('an unknown command says so and exits 2', () => {
    const out = cli('certifyy');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('unknown command "certifyy"');
  });
});

describe('settings precedence: defaults < target file < environment < command line', () => {
  it('the command line wins over the environment', () => {
    const plan = planRun(['--depth', 'nightly', '--seed', '5', '--areas', 'insurance', '--shard', '2/4'], { CONFORMANCE_RUNS: '7', CONFORMANCE_SEED: '9', CONFORMANCE_AREAS: 'speech' });
    expect(plan.env).toMatchObject({ CONFORMANCE_RUNS: '100', CONFORMANCE_DEPTH: 'nightly', CONFORMANCE_SEED: '5', CONFORMANCE_AREAS: 'insurance', CONFORMANCE_PACE_SHARE: '0.25' });
    expect(plan.vitestArgs).toContain('--shard=2/4');
  });

  it('refuses a bad depth or shard before anything runs', () => {
    expect(() => planRun(['--depth', 'deep'], {})).toThrow(/--depth must be one of quick, standard, nightly/);
    expect(() => planRun(['--shard', '3/2'], {})).toThrow(/--shard must be i\/n/);
  });
});

const FILES = ['suites/speech', 'suites/insurance', 'suites/identity', 'suites/invest'];
const requirementIds = (run: SuiteRun) => [...new Set(run.summary!.tests.map((t) => t.requirement))].sort();
const countsOf = (run: SuiteRun) => {
  const c = run.summary!.counts;
  return { passed: c.passed, failed: c.failed, skipped: c.skipped, total: c.total };
};

describe('shards', () => {
  it('two shards, merged, give the counts and the requirement ids of the unsharded run', async () => {
    const env = { CONFORMANCE_SEED: '20261121', CONFORMANCE_WORKERS: '3' };
    const whole = await runSuite({ env, files: FILES });
    const shards = [await runSuite({ env, files: ['--shard', '1/2', ...FILES] }), await runSuite({ env, files: ['--shard', '2/2', ...FILES] })];
    for (const s of shards) expect(s.stdout).toContain("of every documented limit (this shard's share)");
    const mergedDir = tempDir('pc-merged-');
    const merge = cli('merge', shards[0].reportDir, shards[1].reportDir, '--reports', mergedDir);
    expect(merge.status, merge.stdout + merge.stderr).toBe(0);
    const merged = (await import('../../harness/report/merge.ts')).readSummary(mergedDir);
    expect(whole.summary!.counts.passed).toBeGreaterThan(100);
    expect({ passed: merged.counts.passed, failed: merged.counts.failed, skipped: merged.counts.skipped, total: merged.counts.total }).toEqual(countsOf(whole));
    expect([...new Set(merged.tests.map((t) => t.requirement))].sort()).toEqual(requirementIds(whole));
    expect(shards[0].summary!.counts.total).toBeGreaterThan(0);
    expect(shards[1].summary!.counts.total).toBeGreaterThan(0);
    // The shards' evidence, as one set: every entry of each shard once, every test pointing at its own.
    const entriesOf = (dir: string, summary: { evidence?: { files: Array<{ file: string }> } }) => (summary.evidence?.files ?? []).flatMap(({ file }) => (JSON.parse(readFileSync(join(dir, file), 'utf8')).log.entries as Array<{ _id: string; request: { url: string } }>).map((e) => ({ ref: `${file}#${e._id}`, url: e.request.url })));
    const mergedEntries = new Map(entriesOf(mergedDir, merged).map((e) => [e.ref, e.url]));
    expect(mergedEntries.size).toBe(shards.reduce((n, s) => n + entriesOf(s.reportDir, s.summary!).length, 0));
    // Each test's exchanges in its shard's files, by URL: the merged test points at the same ones.
    const urlsInShard = shards.flatMap((s) => {
      const urls = new Map(entriesOf(s.reportDir, s.summary!).map((e) => [e.ref, e.url]));
      return s.summary!.tests.map((t) => t.evidence?.map((ref) => urls.get(ref)));
    });
    expect(merged.tests.filter((t) => t.evidence?.length).length).toBeGreaterThan(100);
    merged.tests.forEach((t, i) => expect(t.evidence?.map((ref) => mergedEntries.get(ref)), t.title).toEqual(urlsInShard[i]));
  }, 600_000);
});

describe('diff and --only-failed', () => {
  it('a clean run against a run with a fault lists exactly the fault\'s failures as new, and exits 1', async () => {
    const files = ['suites/insurance/limits.test.ts'];
    const env = { CONFORMANCE_SEED: '20261121', CONFORMANCE_WORKERS: '2' };
    const clean = await runSuite({ env, files });
    const faulty = await runSuite({ env: { ...env, CONFORMANCE_SANDBOX_FAULTS: 'ins-contract-id-unbounded' }, files });
    expect(faulty.code).toBe(1);
    const failedTitles = faulty.summary!.tests.filter((t) => t.verdict === 'failed').map((t) => t.title).sort();
    expect(failedTitles.length).toBeGreaterThan(0);
    const diff = diffRuns(clean.summary!, faulty.summary!);
    expect(diff.newFailures.map((t) => t.title).sort()).toEqual(failedTitles);
    expect(new Set(diff.newFailures.map((t) => t.requirement))).toEqual(new Set(['INS-LIM-002']));
    const printed = cli('diff', clean.reportDir, faulty.reportDir);
    expect(printed.status).toBe(1);
    expect(printed.stdout).toContain(`new failures: ${failedTitles.length}`);
    expect(cli('diff', faulty.reportDir, clean.reportDir).stdout).toContain(`fixed: ${failedTitles.length}`);

    // --only-failed reruns exactly those tests, with the failed run's seed; against a clean sandbox they
    // pass, so `diff --rerun` calls them flaky instead of new.
    const rerunDir = tempDir('pc-rerun-');
    const rerun = await runSuite({ env, files: ['--only-failed', '--from', faulty.reportDir], reportDir: rerunDir });
    expect(rerun.code, rerun.stdout.slice(-2000)).toBe(0);
    expect(rerun.summary!.tests.map((t) => t.title).sort()).toEqual(failedTitles);
    const flaky = cli('diff', clean.reportDir, faulty.reportDir, '--rerun', join(rerunDir, 'conformance.json'));
    expect(flaky.status).toBe(0);
    expect(flaky.stdout).toContain(`flaky (failed, then passed on an immediate rerun with the same seed): ${failedTitles.length}`);
    expect(flaky.stdout).toContain('new failures: 0');
  }, 300_000);
});
