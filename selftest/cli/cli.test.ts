/**
 * The command-line entry as a user runs it: help for every command, its version, a command it most likely
 * meant, the settings precedence, shards whose
 * merge equals the unsharded run, a run with a fault (its failure as printed and evidenced), `diff`
 * between it and a clean run, `--only-failed` against the failed run's own target, flaky and refused reruns.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allCommands, commandNamed } from '../../harness/cli/commands.ts';
import { planRun } from '../../harness/cli/run.ts';
import { diffRuns } from '../../harness/report/diff.ts';
import { CLI, QUICK_RUN, ROOT, runSuite, tempDir, type SuiteRun } from '../helpers.ts';

const COMMANDS = await allCommands();

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('help', () => {
  it("--help lists every command, and each command's --help lists its options", async () => {
    const top = cli('--help');
    expect(top.status).toBe(0);
    for (const c of COMMANDS) expect(top.stdout).toContain(`  ${c.name}`);
    // Each command is loaded by the name it has.
    for (const c of COMMANDS) expect(await commandNamed(c.name)).toBe(c);
    for (const c of COMMANDS) {
      const own = cli(c.name, '--help');
      expect(own.status, c.name).toBe(0);
      expect(own.stdout).toContain(`usage: ${c.usage}`);
      for (const o of c.options) expect(own.stdout).toContain(o.flag);
    }
  });

  it('an unknown command says so, with the command it most likely meant, and exits 2', () => {
    const out = cli('certifyy');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('unknown command "certifyy"; did you mean certify?');
    expect(cli('rnu').stderr).toContain('unknown command "rnu"; did you mean run?');
  });

  it('--version prints the version and exits 0', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-v']) {
      const out = cli(flag);
      expect(out.status, flag).toBe(0);
      expect(out.stdout).toBe(`partner-conformance ${version}\n`);
    }
  });

  it('certify verify of a folder that does not exist is a usage error (exit 2), not a pack that failed (exit 1)', () => {
    const out = cli('certify', 'verify', '/nonexistent/pc-pack');
    expect(out.status).toBe(2);
    expect(out.stderr.trim()).toBe(
      'partner-conformance certify: /nonexistent/pc-pack does not exist; certify verify takes the folder of a pack',
    );
  });
});

describe('settings precedence: defaults < target file < environment < command line', () => {
  it('the command line wins over the environment', async () => {
    const plan = await planRun(['--depth', 'nightly', '--seed', '5', '--areas', 'insurance', '--shard', '2/4'], {
      CONFORMANCE_RUNS: '7',
      CONFORMANCE_SEED: '9',
      CONFORMANCE_AREAS: 'speech',
    });
    expect(plan.env).toMatchObject({
      CONFORMANCE_RUNS: '100',
      CONFORMANCE_DEPTH: 'nightly',
      CONFORMANCE_SEED: '5',
      CONFORMANCE_AREAS: 'insurance',
      CONFORMANCE_PACE_SHARE: '0.25',
    });
    expect(plan.vitestArgs).toContain('--shard=2/4');
  });

  it('refuses a bad depth or shard before anything runs, as SETTING_INVALID', async () => {
    await expect(planRun(['--depth', 'deep'], {})).rejects.toThrow(/^SETTING_INVALID: --depth must be one of quick, standard, nightly/);
    await expect(planRun(['--shard', '3/2'], {})).rejects.toThrow(/^SETTING_INVALID: --shard must be i\/n/);
  });
});

/**
 * Six files of three areas, chosen so that each shard holds all three (vitest orders the files by a hash
 * of their path): the merge must join every area's evidence from both shards. Their clean run is both the
 * unsharded run the shards are held to and the older run of the diff.
 */
const FILES = [
  'suites/speech/claims.test.ts',
  'suites/speech/valid.test.ts',
  'suites/identity/scopes.test.ts',
  'suites/identity/response.test.ts',
  'suites/insurance/response.test.ts',
  'suites/insurance/limits.test.ts',
];
const ENV = { ...QUICK_RUN, CONFORMANCE_SEED: '20261121' };
let cleanRun: Promise<SuiteRun> | undefined;
const clean = () => (cleanRun ??= runSuite({ env: ENV, files: FILES }));
const requirementIds = (run: SuiteRun) => [...new Set(run.summary!.tests.map((t) => t.requirement))].sort();
const countsOf = (run: SuiteRun) => {
  const c = run.summary!.counts;
  return { passed: c.passed, failed: c.failed, skipped: c.skipped, total: c.total };
};

describe('shards', () => {
  it('two shards, merged, give the counts and the requirement ids of the unsharded run', async () => {
    const [whole, ...shards] = await Promise.all([
      clean(),
      runSuite({ env: ENV, files: ['--shard', '1/2', ...FILES] }),
      runSuite({ env: ENV, files: ['--shard', '2/2', ...FILES] }),
    ]);
    for (const s of shards) expect(s.stdout).toContain("of every documented limit (this shard's share)");
    const harsOf = (s: SuiteRun) => s.summary!.evidence?.files.map((f) => f.file).sort();
    expect(harsOf(shards[0])).toEqual(['evidence/identity.har', 'evidence/insurance.har', 'evidence/speech.har']);
    expect(harsOf(shards[1])).toEqual(harsOf(shards[0]));
    const mergedDir = tempDir('pc-merged-');
    const merge = cli('merge', shards[0].reportDir, shards[1].reportDir, '--reports', mergedDir);
    expect(merge.status, merge.stdout + merge.stderr).toBe(0);
    const merged = (await import('../../harness/report/merge.ts')).readSummary(mergedDir);
    expect(whole.summary!.counts.passed).toBeGreaterThan(40);
    expect({
      passed: merged.counts.passed,
      failed: merged.counts.failed,
      skipped: merged.counts.skipped,
      total: merged.counts.total,
    }).toEqual(countsOf(whole));
    expect([...new Set(merged.tests.map((t) => t.requirement))].sort()).toEqual(requirementIds(whole));
    expect(shards[0].summary!.counts.total).toBeGreaterThan(0);
    expect(shards[1].summary!.counts.total).toBeGreaterThan(0);
    // The shards' evidence, as one set: every entry of each shard once, every test pointing at its own.
    const entriesOf = (dir: string, summary: { evidence?: { files: Array<{ file: string }> } }) =>
      (summary.evidence?.files ?? []).flatMap(({ file }) =>
        (JSON.parse(readFileSync(join(dir, file), 'utf8')).log.entries as Array<{ _id: string; request: { url: string } }>).map((e) => ({
          ref: `${file}#${e._id}`,
          url: e.request.url,
        })),
      );
    const mergedEntries = new Map(entriesOf(mergedDir, merged).map((e) => [e.ref, e.url]));
    expect(mergedEntries.size).toBe(shards.reduce((n, s) => n + entriesOf(s.reportDir, s.summary!).length, 0));
    // Each test's exchanges in its shard's files, by URL: the merged test points at the same ones.
    const urlsInShard = shards.flatMap((s) => {
      const urls = new Map(entriesOf(s.reportDir, s.summary!).map((e) => [e.ref, e.url]));
      return s.summary!.tests.map((t) => t.evidence?.map((ref) => urls.get(ref)));
    });
    expect(merged.tests.filter((t) => t.evidence?.length).length).toBeGreaterThan(40);
    merged.tests.forEach((t, i) =>
      expect(
        t.evidence?.map((ref) => mergedEntries.get(ref)),
        t.title,
      ).toEqual(urlsInShard[i]),
    );
  });
});

describe('a run with a fault, beside a clean run of the same seed', () => {
  const FAULT = 'ins-contract-id-unbounded';
  let older: SuiteRun;
  let faulty: SuiteRun;
  let failedTitles: string[];
  beforeAll(async () => {
    [older, faulty] = await Promise.all([clean(), runSuite({ env: { ...ENV, CONFORMANCE_SANDBOX_FAULTS: FAULT }, files: FILES })]);
    failedTitles = faulty
      .summary!.tests.filter((t) => t.verdict === 'failed')
      .map((t) => t.title)
      .sort();
  });

  it("fails on the requirement the fault names, printed once in the project's words, with the exchange it is about as evidence", () => {
    expect(older.code, older.stdout.slice(-2000)).toBe(0);
    expect(faulty.code).toBe(1);
    const failed = faulty.summary!.tests.filter((t) => t.verdict === 'failed');
    expect([...new Set(failed.map((t) => t.requirement))]).toEqual(['INS-LIM-002']);
    expect(failed[0].message).toMatch(/Expected: rejected with one of 400, 422\n\s+Received: accepted with 201/);
    // Printed once, in the project's words, with one set of counts: not vitest's failure block, stack or counts.
    expect(faulty.stdout.split('Received: accepted with 201').length - 1).toBe(1);
    expect(faulty.stdout).not.toMatch(/Failed Tests|Tests {2,}\d|\bat .*harness\/test\/suite\.ts/);
    expect(faulty.stdout).toMatch(/ ✗ suites\/insurance\/limits\.test\.ts \(\d+ tests: \d+ passed, 1 failed, 0 skipped\)/);
    expect(faulty.stdout).toMatch(/\nconformance: \d+ passed, 1 failed, 0 skipped\n/);
    // Its evidence: the exchange the failure is about, in its area's HAR, where a HAR reader finds it.
    expect(failed[0].evidence!.every((ref) => ref.startsWith('evidence/insurance.har#'))).toBe(true);
    const entries = JSON.parse(readFileSync(join(faulty.reportDir, 'evidence/insurance.har'), 'utf8')).log.entries as Array<{
      _id: string;
      request: { method: string; headers: unknown[] };
      response: { status: number };
    }>;
    const cited = failed[0].evidence!.map((ref) => entries.find((e) => `evidence/insurance.har#${e._id}` === ref)!);
    expect(cited.filter((e) => e.request.method === 'POST' && e.response.status === 201)).not.toEqual([]);
    expect(cited[0].request.headers).toEqual(expect.arrayContaining([{ name: 'authorization', value: 'Bearer ***' }]));
    for (const t of faulty.summary!.tests) expect(t.evidence?.length, t.title).toBeGreaterThan(0);
  });

  it("diff lists exactly the fault's failures as new, and exits 1; the other way round, as fixed", () => {
    expect(failedTitles.length).toBeGreaterThan(0);
    const diff = diffRuns(older.summary!, faulty.summary!);
    expect(diff.newFailures.map((t) => t.title).sort()).toEqual(failedTitles);
    expect(new Set(diff.newFailures.map((t) => t.requirement))).toEqual(new Set(['INS-LIM-002']));
    const printed = cli('diff', older.reportDir, faulty.reportDir);
    expect(printed.status).toBe(1);
    expect(printed.stdout).toContain(`new failures: ${failedTitles.length}`);
    expect(cli('diff', faulty.reportDir, older.reportDir).stdout).toContain(`fixed: ${failedTitles.length}`);
  });

  it("--only-failed reruns exactly those tests against the failed run's own target (its faults), seed and runs: they fail again, new and not flaky", async () => {
    const rerunDir = tempDir('pc-rerun-');
    const rerun = await runSuite({ env: QUICK_RUN, files: ['--only-failed', '--from', faulty.reportDir], reportDir: rerunDir });
    expect(rerun.code, rerun.stdout.slice(-2000)).toBe(1);
    expect(rerun.summary!.seed).toBe(20261121);
    expect(rerun.summary!.runs).toBe(faulty.summary!.runs);
    expect(rerun.summary!.target).toEqual(faulty.summary!.target);
    expect(rerun.summary!.target!.embeddedSandbox).toEqual({ faults: [FAULT] });
    expect(rerun.summary!.tests.map((t) => t.title).sort()).toEqual(failedTitles);
    expect(rerun.summary!.tests.every((t) => t.verdict === 'failed')).toBe(true);
    const night = cli('diff', older.reportDir, faulty.reportDir, '--rerun', join(rerunDir, 'conformance.json'));
    expect(night.status, night.stdout + night.stderr).toBe(1);
    expect(night.stdout).toContain(`new failures: ${failedTitles.length}`);
    expect(night.stdout).toContain('flaky (failed, then passed on an immediate rerun with the same seed): 0');
    // The clean run and the faulty one checked different sandboxes: the comparison says so out loud.
    expect(night.stdout).toContain('WARNING: OLD and NEW checked different targets (the embedded sandbox was started with other faults)');
  });

  it('a rerun of another target is refused, by run --only-failed before it starts and by diff --rerun', async () => {
    const refused = spawnSync(process.execPath, [CLI, 'run', '--only-failed', '--from', faulty.reportDir], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CONFORMANCE_SANDBOX_FAULTS: 'ins-currency-widened' },
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `--only-failed: ${faulty.reportDir} checked the embedded sandbox (faults ${FAULT}); CONFORMANCE_SANDBOX_FAULTS names ins-currency-widened: a rerun of its failures goes to the target that failed them`,
    );
    const named = cli('run', '--only-failed', '--from', faulty.reportDir, '--target', join(ROOT, 'examples', 'target.example.yaml'));
    expect(named.status).toBe(2);
    expect(named.stderr).toContain('this run names target file');
    // The clean run as the "rerun" of the faulty one: its passes would have been called flaky.
    const diff = cli('diff', older.reportDir, faulty.reportDir, '--rerun', older.reportDir);
    expect(diff.status).toBe(2);
    expect(diff.stderr).toContain('a rerun of another target cannot tell a flaky failure from a broken one');
  });

  it('a failure that passed on a rerun of the same target is flaky: listed, and a warning (exit 3), not a failure', () => {
    const rerunDir = tempDir('pc-rerun-');
    const passed = {
      ...faulty.summary!,
      tests: faulty
        .summary!.tests.filter((t) => t.verdict === 'failed')
        .map((t) => ({ ...t, verdict: 'passed' as const, message: undefined })),
    };
    writeFileSync(join(rerunDir, 'conformance.json'), JSON.stringify(passed));
    const night = cli('diff', older.reportDir, faulty.reportDir, '--rerun', rerunDir);
    expect(night.status, night.stdout + night.stderr).toBe(3);
    expect(night.stdout).toContain(`flaky (failed, then passed on an immediate rerun with the same seed): ${failedTitles.length}`);
    expect(night.stdout).toContain('new failures: 0');
    expect(night.stdout).toContain('night: nothing new but flaky failures, listed above (exit 3: a warning)');
  });
});
