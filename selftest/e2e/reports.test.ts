/**
 * What every run leaves, as a user runs it: a target that forges the console (an answer that clears the
 * screen and prints "conformance: 80 passed, 0 failed", a target file whose name does the same) is shown
 * escaped everywhere, never obeyed; every run writes report.html and names its reports last; the file
 * lines add up to the closing line and the header names only the areas that run, also with vitest's own
 * options (--bail keeps the area selection, and what it kept from running says so); a run refused before
 * it starts, or one that cannot write its reports (a file size limit, as a full disk), leaves the last
 * reports as they were, drift.json and fetched/ included, and no half-written file.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { printable } from '../../harness/text/printable.ts';
import type { RunSummary } from '../../harness/report/records.ts';
import { CLI, filesUnder, QUICK_RUN, RAW_CONTROL, ROOT, runSuite, tempDir, type SuiteRun } from '../helpers.ts';
import { type FaultServer, faultServer } from '../robustness/_servers.ts';

const FORGED_LINE = 'conformance: 80 passed, 0 failed';
const FORGED_BODY = `\u001b[2J\u001b[H\r${FORGED_LINE}\n\u001b[32m${FORGED_LINE}\u001b[0m\u0007\b\u202e`;
const FORGED_NAME = `staging\n\u001b[2J${FORGED_LINE}`;

/** The closing counts (passed, failed, skipped) of a console, and the sum of its file lines. */
function counts(stdout: string) {
  const closing = /^conformance: (\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(stdout)!.slice(1).map(Number);
  const files = [...stdout.matchAll(/^ [✓✗!-] \S+ \(\d+ tests?: (\d+) passed, (\d+) failed, (\d+) skipped/gm)].map((m) =>
    m.slice(1).map(Number),
  );
  const sum = files.reduce((a, f) => a.map((n, i) => n + f[i]), [0, 0, 0]);
  return { closing, sum, files: files.length };
}

/** Every file of a report folder with the hash of its bytes (hidden folders of a run in progress left out). */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    [...filesUnder(dir)].map((file) => [file.slice(dir.length + 1), createHash('sha256').update(readFileSync(file)).digest('hex')]),
  );
}

/** The last run's reports as a later run must leave them: a run's outputs, with drift.json and fetched/. */
function lastRunIn(dir: string, from: SuiteRun): Record<string, string> {
  for (const file of filesUnder(from.reportDir)) {
    const to = join(dir, file.slice(from.reportDir.length + 1));
    mkdirSync(join(to, '..'), { recursive: true });
    writeFileSync(to, readFileSync(file));
  }
  writeFileSync(join(dir, 'drift.json'), '{"lastRun":true}\n');
  mkdirSync(join(dir, 'fetched'), { recursive: true });
  writeFileSync(join(dir, 'fetched', 'abc-openapi.yaml'), 'openapi: 3.0.0\n');
  return snapshot(dir);
}

let server: FaultServer | undefined;
afterAll(() => server?.close());

/** The forging target's run. */
async function forgedRun(): Promise<SuiteRun> {
  server = await faultServer(() => (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(FORGED_BODY));
  });
  const file = join(tempDir(), 'target.yaml');
  writeFileSync(
    file,
    stringify({
      name: FORGED_NAME,
      kind: 'staging',
      areas: ['insurance'],
      services: { insurance: { url: server.base, token: 'forge-token-1' } },
    }),
  );
  return runSuite({ env: { ...QUICK_RUN, CONFORMANCE_TARGET: file }, files: ['--grep', 'INS-LIM-002'] });
}

const FAULT = { ...QUICK_RUN, CONFORMANCE_SANDBOX_FAULTS: 'ins-contract-id-unbounded' };
// The three runs are independent: they go side by side, each with its one worker.
let runs: Promise<[SuiteRun, SuiteRun, SuiteRun]> | undefined;
const allRuns = () =>
  (runs ??= Promise.all([
    forgedRun(),
    runSuite({ env: FAULT, files: ['--grep', 'INS-LIM'] }),
    runSuite({ env: FAULT, files: ['--areas', 'insurance', '--bail', '1'] }),
  ]));

describe('a target that forges the console', () => {
  let run: SuiteRun;
  beforeAll(async () => {
    run = (await allRuns())[0];
  }, 300_000);

  it('is printed escaped: no control character reaches the console, and the one closing line is the real one', () => {
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    const console = run.stdout + run.stderr;
    expect(console).not.toMatch(RAW_CONTROL);
    expect(console.split('\n').filter((line) => line.startsWith('conformance:'))).toEqual(['conformance: 0 passed, 2 failed, 0 skipped']);
    expect(console).toContain(`conformance target: ${printable(FORGED_NAME).replace('\n', '\\n')} (kind staging`);
    expect(console).toContain(`body: \\x1b[2J\\x1b[H\\r${FORGED_LINE}\\n\\x1b[32m`);
  });

  it('is escaped in every report, and each is still what it says (JSON the same value, HTML and XML markup untouched)', () => {
    const files = [...filesUnder(run.reportDir)];
    const names = files.map((f) => f.slice(run.reportDir.length + 1));
    expect(names.filter((name) => !name.startsWith('allure-results/')).sort()).toEqual([
      'conformance.json',
      'conformance.md',
      'evidence/insurance.har',
      'junit.xml',
      'pacing.json',
      'report.html',
    ]);
    // Allure's results too: one per test, with their attachments (every file is scanned below).
    expect(names.filter((name) => name.endsWith('-result.json'))).toHaveLength(2);
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(RAW_CONTROL);
    const md = readFileSync(join(run.reportDir, 'conformance.md'), 'utf8');
    expect(md.split('\n').filter((line) => line.includes(FORGED_LINE) && !line.includes('\\x1b'))).toEqual([]);
    const summary = JSON.parse(readFileSync(join(run.reportDir, 'conformance.json'), 'utf8')) as RunSummary;
    expect(summary.target?.name).toBe(FORGED_NAME);
    const har = JSON.parse(readFileSync(join(run.reportDir, 'evidence/insurance.har'), 'utf8'));
    expect(har.log.entries[0].response.content.text).toBe(FORGED_BODY);
    expect(readFileSync(join(run.reportDir, 'report.html'), 'utf8')).toContain('\\x1b[2J');
  });

  it('a run refused before it starts (a mistyped --target, a broken target file) leaves the last reports as they were', async () => {
    const dir = tempDir('pc-report-');
    const before = lastRunIn(dir, run);
    const broken = join(tempDir(), 'broken.yaml');
    writeFileSync(
      broken,
      'name: broken\nkind: staging\nservices:\n  insurance: { url: "https://x.test", token: "${PC_NOT_SET_ANYWHERE}" }\n',
    );
    for (const target of [join(tempDir(), 'no-such-target.yaml'), broken]) {
      const refused = await runSuite({ env: { CONFORMANCE_TARGET: target }, reportDir: dir, timeoutMs: 60_000 });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`the run did not start; the reports in ${dir} are the last run's, left as they were`);
      expect(refused.stdout + refused.stderr).not.toMatch(/RUN\s+v\d/);
      expect(snapshot(dir)).toEqual(before);
      expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
    }
  }, 120_000);
});

/** `partner-conformance run` as runSuite runs it, with the size of a file it may write limited (SIGXFSZ ignored: a write past it fails, EFBIG, as one on a full disk does). */
function runWithFileLimit(args: string[], reportDir: string, kilobytes: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `trap '' XFSZ; ulimit -f ${kilobytes}; exec "$@"`, 'bash', process.execPath, CLI, 'run', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...QUICK_RUN, CONFORMANCE_REPORT_DIR: reportDir, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a run of one area by its requirement ids, against the embedded sandbox', () => {
  let run: SuiteRun;
  beforeAll(async () => {
    run = (await allRuns())[1];
  }, 300_000);

  it('names only that area, lists only the files that ran, whose lines add up to the closing line, and names its reports last', () => {
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    expect(run.stdout).toMatch(/^conformance target: embedded-sandbox \(kind sandbox, vendorConventions true\); areas insurance; /m);
    const { closing, sum, files } = counts(run.stdout);
    expect(files).toBeGreaterThan(0);
    expect(sum).toEqual(closing);
    expect(closing[1]).toBeGreaterThan(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      `reports in ${run.reportDir}: report.html (open it in a browser), conformance.md, conformance.json, junit.xml, evidence/ (1 HAR file(s)), allure-results/`,
    );
    expect(readFileSync(join(run.reportDir, 'report.html'), 'utf8')).toContain('<h1>FAILED</h1>');
    expect(run.summary?.areas).toEqual(['insurance']);
  });

  it('that cannot write its reports leaves the last ones as they were, and no half-written file', async () => {
    const dir = tempDir('pc-report-');
    const before = lastRunIn(dir, run);
    // The HAR of these tests is larger than the limit; the run's modules were cached by the run above.
    const limited = await runWithFileLimit(['--grep', 'INS-LIM'], dir, 64);
    expect(limited.code, limited.output.slice(-3000)).toBe(2);
    expect(limited.output).toMatch(/partner-conformance: SETTING_INVALID: the reports could not be written to \S+ \((EFBIG|ENOSPC)\)/);
    expect(limited.output).toContain(`the run wrote no report; the reports in ${dir} are the last run's, left as they were`);
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
  }, 240_000);
});

describe('a run of one area with a vitest option (--bail)', () => {
  it('collects that area alone, and says the tests the bail kept from running were stopped, not skipped without a reason', async () => {
    const run = (await allRuns())[2];
    expect(run.code, run.stdout.slice(-3000)).toBe(1);
    const tests = run.summary!.tests;
    expect(tests.filter((t) => !t.file.startsWith('suites/insurance/'))).toEqual([]);
    expect(tests.filter((t) => t.code === 'AREA_NOT_SELECTED')).toEqual([]);
    const unexplained = tests.filter((t) => (t.verdict === 'skipped' || t.verdict === 'inconclusive') && !t.code);
    expect(unexplained.map((t) => `${t.title}: ${t.skipReason}`)).toEqual([]);
    for (const t of tests.filter((x) => x.code === 'RUN_STOPPED'))
      expect(t.skipReason).toMatch(/^RUN_STOPPED: vitest --bail 1: the run stopped after 1 failed test/);
    const { closing, sum } = counts(run.stdout);
    expect(sum).toEqual(closing);
  }, 240_000);
});
