/**
 * The nightly CI templates of examples/ci/, run as their CI runs them, over two nights of a team whose
 * staging is a sandbox on one port (one area, identity, at quick depth, to keep it short):
 * - night 1, clean, on GitHub Actions: the workflow validates (@action-validator/cli, which fails a broken
 *   copy), and its jobs' steps run in order as a runner runs them (selftest/ci/_github-runner.ts): three
 *   shards, then the report job, which finds no earlier night, rerun nothing, judges nothing new, builds
 *   the Allure report and keeps the night in the cache;
 * - night 2, with a defect injected into the same staging (client_secret is not checked), on GitLab: the
 *   pipeline runs in gitlab-ci-local (shell executor, no Docker; its JSON schema check of the file first),
 *   from the cache the first night left: the pipeline fails, the defect is a new failure and not flaky (the
 *   rerun went to the same target and failed again), the reports are uploaded as artifacts, and the Allure
 *   report has the history of both nights.
 * No secret of the CI is in any log, report or uploaded file. The templates' secrets and the example
 * target file's variables are held equal by selftest/cli/ci-templates.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../harness/report/records.ts';
import { targetDifference } from '../../harness/report/target-identity.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { filesUnder, ROOT, runCaptured, tempDir } from '../helpers.ts';
import { SecretScan } from '../secret-scan.ts';
import { jobRuns, readWorkflow, runJob, type JobResult, type RunnerContext } from './_github-runner.ts';
import { teamRepo, type TeamRepo } from './_team-repo.ts';

const AREA = 'identity';
const DEFECT = 'idn-client-secret-unchecked';
const DEFECT_REQUIREMENT = 'IDN-CLI-001';
const CACHE_KEY = 'conformance-nightly-history';
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment a CI runner gives a job: a PATH with the team repository's npm first, nothing of this process's settings. */
const runnerEnv = (repo: TeamRepo): Record<string, string> => ({
  PATH: `${repo.binDir}:${process.env.PATH}`,
  HOME: tempDir('pc-ci-home-'),
  LANG: 'C.UTF-8',
  NO_COLOR: '1',
  // A runner's own setting, as a CI variable: one worker per shard (the selftest runs several things at once).
  CONFORMANCE_WORKERS: '1',
});

/** Each job's closing status in gitlab-ci-local's log: PASS, WARN (allowed to fail) or FAIL. The shards pass: the report job judges the night, once. */
function jobStatuses(log: string): Record<string, string> {
  return Object.fromEntries([...log.matchAll(/^ (PASS|WARN|FAIL) {2}(.+?)\s*$/gm)].map((m) => [m[2], m[1]]));
}

const summaryAt = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RunSummary;
const requirementsOf = (summary: RunSummary, verdict: string) =>
  [...new Set(summary.tests.filter((t) => t.verdict === verdict).map((t) => t.requirement))].sort();

let sandbox: RunningSandbox | undefined;
let port: number;
let repo: TeamRepo;
let github: { ctx: RunnerContext; shards: JobResult[]; report: JobResult };
let gitlab: { code: number | null; log: string; state: string };

beforeAll(async () => {
  port = await freePort();
  sandbox = await startSandbox({ areas: [AREA], port });
  repo = teamRepo(sandbox.targetDocument());
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

describe('night 1, clean, on GitHub Actions', () => {
  it('the workflow validates, and a copy with an unknown job in `needs` does not (the validator can fail)', () => {
    const file = join(repo.dir, '.github', 'workflows', 'conformance.yml');
    const valid = spawnSync(bin('action-validator'), [file], { encoding: 'utf8' });
    expect(valid.status, valid.stdout + valid.stderr).toBe(0);
    const broken = join(tempDir('pc-ci-broken-'), 'conformance.yml');
    writeFileSync(broken, readFileSync(file, 'utf8').replace('needs: nightly-shard', 'needs: nightly-shards'));
    const refused = spawnSync(bin('action-validator'), [broken], { encoding: 'utf8' });
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('unresolved job nightly-shards');
  }, 60_000);

  it('runs every step of the shards and the report job in order: nothing new, the night kept in the cache, the reports uploaded', async () => {
    const workflow = readWorkflow(join(repo.dir, '.github', 'workflows', 'conformance.yml'));
    const ctx: RunnerContext = {
      repo: repo.dir,
      work: tempDir('pc-ci-github-'),
      event: 'schedule',
      runId: '1001',
      secrets: repo.secrets,
      vars: { CONFORMANCE_DEPTH: 'quick' },
      baseEnv: runnerEnv(repo),
      stepTimeoutMs: 300_000,
    };
    expect(jobRuns(workflow, 'pull-request', ctx)).toBe(false);
    expect(jobRuns(workflow, 'nightly-shard', ctx) && jobRuns(workflow, 'nightly-report', ctx)).toBe(true);
    const matrix = workflow.jobs['nightly-shard'].strategy!.matrix!.shard as number[];
    const shards = await Promise.all(matrix.map((shard) => runJob(workflow, 'nightly-shard', ctx, { shard })));
    const report = await runJob(workflow, 'nightly-report', ctx);
    github = { ctx, shards, report };
    for (const job of [...shards, report])
      for (const step of job.steps) expect(step.outcome, `${job.job} ${step.name}\n${step.output.slice(-3000)}`).toBe('success');
    const diff = report.steps.find((s) => s.name === 'Compare with the previous night')!.output;
    expect(diff).toContain('no earlier run at history/previous-night.json: every failure of NEW counts as new');
    expect(diff).toContain('night: nothing new (exit 0)');
    const merged = summaryAt(join(ctx.work, 'artifacts', 'conformance-nightly', 'merged', 'conformance.json'));
    expect(merged.counts.passed).toBeGreaterThan(20);
    expect(merged.counts.failed).toBe(0);
    expect(merged.mergedFrom).toHaveLength(3);
    expect(existsSync(join(ctx.work, 'artifacts', 'conformance-nightly', 'merged', 'allure-report', 'index.html'))).toBe(true);
    const cached = join(ctx.work, 'cache', `${CACHE_KEY}-1001`);
    expect(summaryAt(join(cached, 'previous-night.json')).counts).toEqual(merged.counts);
    expect(readFileSync(join(cached, 'allure-history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  }, 600_000);

  it('the verdict step fails the job on new failures, new tool errors or no comparison, and only warns on flaky failures', async () => {
    const step = readWorkflow(join(repo.dir, '.github', 'workflows', 'conformance.yml')).jobs['nightly-report'].steps.find(
      (s) => s.name === "Tonight's verdict",
    )!;
    // One shell for every case (each case in a subshell, as its own step would be).
    const cases = ['0', '1', '2', '3', ''];
    const script = cases
      .map((night) => `( export NIGHT='${night}'; ( ${step.run!.trim()} ) > /dev/null; echo "night '${night}' exit $?" ) || true`)
      .join('\n');
    const out = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(out.stdout.trim().split('\n')).toEqual([
      "night '0' exit 0",
      "night '1' exit 1",
      "night '2' exit 1",
      "night '3' exit 0",
      "night '' exit 1",
    ]);
    const warned = spawnSync('bash', ['-e', '-c', step.run!], { encoding: 'utf8', env: { PATH: process.env.PATH, NIGHT: '3' } });
    expect(warned.stdout).toContain('::warning title=conformance::flaky failures');
  }, 120_000);
});

describe('night 2, a defect injected, on GitLab (gitlab-ci-local)', () => {
  beforeAll(async () => {
    // gitlab-ci-local copies each job's checkout with rsync (.ci/run installs it).
    if (spawnSync('rsync', ['--version']).status !== 0)
      throw new Error('rsync is missing: gitlab-ci-local needs it to run the GitLab template (.ci/run installs it)');
    await sandbox?.close();
    sandbox = await startSandbox({ areas: [AREA], port, faults: [DEFECT] });
    // The cache GitLab keeps from night to night holds what the first night left.
    cpSync(join(github.ctx.work, 'cache', `${CACHE_KEY}-1001`), join(repo.dir, '.gitlab-ci-local', 'cache', CACHE_KEY, 'history'), {
      recursive: true,
    });
    const variables = { ...repo.secrets, CONFORMANCE_DEPTH: 'quick', CONFORMANCE_WORKERS: '1' };
    writeFileSync(
      join(repo.dir, '.gitlab-ci-local-variables.yml'),
      Object.entries(variables)
        .map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`)
        .join(''),
    );
    const args = [
      '--shell-isolation',
      '--force-shell-executor',
      '--no-color',
      '--home',
      tempDir('pc-ci-gcl-home-'),
      '--variable',
      'CI_PIPELINE_SOURCE=schedule',
      '--ignore-predefined-vars',
      'CI_PIPELINE_SOURCE',
    ];
    const run = await runCaptured(bin('gitlab-ci-local'), args, { cwd: repo.dir, env: runnerEnv(repo), timeoutMs: 540_000 });
    gitlab = { code: run.code, log: run.output, state: join(repo.dir, '.gitlab-ci-local') };
  }, 600_000);

  /** The folder of the report job's uploaded artifacts (gitlab-ci-local names it after the job). */
  const reportArtifacts = () =>
    join(gitlab.state, 'artifacts', readdirSync(join(gitlab.state, 'artifacts')).find((d) => d.includes('report'))!);

  it('the pipeline fails: the defect is a new failure, not flaky (its rerun against the same target failed again)', () => {
    expect(gitlab.log).toMatch(/json schema validated/);
    // The pipeline's verdict is its jobs': gitlab-ci-local's own exit code counts a job with
    // `allow_failure: exit_codes` as allowed to fail whatever its exit code (GitLab fails it for any other code).
    expect(jobStatuses(gitlab.log), gitlab.log.slice(-4000)).toEqual({
      'conformance:nightly: [1/3]': 'PASS',
      'conformance:nightly: [2/3]': 'PASS',
      'conformance:nightly: [3/3]': 'PASS',
      'conformance:report': 'FAIL',
    });
    expect(gitlab.log).toContain('night exit 1 (');
    const reports = join(reportArtifacts(), 'reports');
    const merged = summaryAt(join(reports, 'merged', 'conformance.json'));
    expect(requirementsOf(merged, 'failed')).toContain(DEFECT_REQUIREMENT);
    const rerun = summaryAt(join(reports, 'rerun', 'conformance.json'));
    expect(targetDifference(rerun.target, merged.target)).toBeUndefined();
    expect(rerun.seed).toBe(merged.seed);
    expect(rerun.tests.map((t) => t.title).sort()).toEqual(
      merged.tests
        .filter((t) => t.verdict === 'failed')
        .map((t) => t.title)
        .sort(),
    );
    expect(rerun.tests.every((t) => t.verdict === 'failed')).toBe(true);
    const diff = readFileSync(join(reports, 'merged', 'diff.txt'), 'utf8');
    expect(diff).not.toContain('no earlier run');
    expect(diff).not.toContain('WARNING');
    expect(diff).toMatch(new RegExp(`new failures: [1-9]\\d*\\n(?:.*\\n)*?  ${DEFECT_REQUIREMENT} \\(`));
    expect(diff).toContain('flaky (failed, then passed on an immediate rerun with the same seed): 0');
    expect(diff).toContain('night: new failures (exit 1)');
  });

  it('uploads the reports: merged JUnit, summaries, evidence, the diff, the Allure results and report, the rerun', () => {
    const reports = join(reportArtifacts(), 'reports');
    for (const file of [
      'merged/junit.xml',
      'merged/conformance.md',
      'merged/diff.txt',
      'merged/evidence/identity.har',
      'merged/allure-report/index.html',
      'rerun/junit.xml',
    ])
      expect(existsSync(join(reports, file)), file).toBe(true);
    expect(readdirSync(join(reports, 'merged', 'allure-results')).some((f) => f.endsWith('-result.json'))).toBe(true);
    expect(readFileSync(join(reports, 'merged', 'junit.xml'), 'utf8')).toContain(
      `<property name="requirement" value="${DEFECT_REQUIREMENT}"/>`,
    );
    const uploads = readdirSync(join(gitlab.state, 'artifacts')).map((d) => join(gitlab.state, 'artifacts', d));
    for (const shard of [1, 2, 3])
      expect(
        uploads.some((d) => existsSync(join(d, 'reports', `shard-${shard}`, 'conformance.json'))),
        `shard ${shard}`,
      ).toBe(true);
  });

  it("the Allure report has both nights: the history kept in the cache, and the defect's test passed the night before", () => {
    const history = readFileSync(join(gitlab.state, 'cache', CACHE_KEY, 'history', 'allure-history.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(history).toHaveLength(2);
    const results = join(reportArtifacts(), 'reports', 'merged', 'allure-report', 'data', 'test-results');
    const defect = readdirSync(results)
      .map(
        (f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as { name: string; status: string; history?: Array<{ status: string }> },
      )
      .filter((r) => r.name.startsWith(DEFECT_REQUIREMENT) && r.status === 'failed');
    expect(defect.length).toBeGreaterThan(0);
    for (const result of defect) expect(result.history?.map((h) => h.status)).toContain('passed');
    // The cache now holds tonight as the previous night.
    expect(summaryAt(join(gitlab.state, 'cache', CACHE_KEY, 'history', 'previous-night.json')).counts.contractFailures).toBeGreaterThan(0);
  });

  it('no secret of the CI is in any log, step output, report or uploaded file, in any encoding', () => {
    const scan = new SecretScan(Object.values(repo.secrets));
    const texts: Array<[string, string]> = [
      ['gitlab-ci-local', gitlab.log],
      ...[...github.shards, github.report].flatMap((job) => job.steps.map((s): [string, string] => [`${job.job} ${s.name}`, s.output])),
    ];
    for (const dir of [
      join(gitlab.state, 'artifacts'),
      join(gitlab.state, 'cache'),
      join(github.ctx.work, 'artifacts'),
      join(github.ctx.work, 'cache'),
    ])
      for (const file of filesUnder(dir))
        if (!/\.(js|css|woff2?|svg|png|ico)$/.test(file)) texts.push([relative(dir, file), readFileSync(file, 'latin1')]);
    expect(texts.length).toBeGreaterThan(100);
    const leaks = texts.flatMap(([where, text]) => [
      ...scan.formsIn(text).map((f) => `${where}: ${f.form.slice(0, 8)}…`),
      ...[...scan.hiddenIn(text)].map((s) => `${where}: ${s.slice(0, 8)}… in base64`),
    ]);
    expect(leaks).toEqual([]);
  });
});
