/** Helpers for the selftests: temporary folders, running the suite as a user would. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CapturedResponse } from '../harness/request/http.ts';
import type { RunSummary } from '../harness/report/summary-reporter.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(ROOT, 'bin', 'partner-conformance.mjs');

/** Every character a terminal or a reader obeys: C0 but tab and line feed, DEL, C1, bidi marks, embeddings, overrides and isolates, line and paragraph separators. */
export const OBEYED_CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => i).filter((c) => c !== 0x09 && c !== 0x0a),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x061c,
  0x200e,
  0x200f,
  0x2028,
  0x2029,
  ...Array.from({ length: 5 }, (_, i) => 0x202a + i),
  ...Array.from({ length: 4 }, (_, i) => 0x2066 + i),
].map((c) => String.fromCharCode(c));

/** One raw character of OBEYED_CONTROLS. */
export const RAW_CONTROL = new RegExp(`[${OBEYED_CONTROLS.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`);

/**
 * No selftest is held to a time of its own: beside two other suite runs on two cores everything takes
 * several times as long (a whole-suite run that takes 53 s alone outlived a timeout of 300 s), and a
 * test that fails for that proves nothing. Each test waits for its work to end, and a bound only catches
 * a hang, far beyond what any test takes on a machine ten times busier than a quiet one: HANG_MS for one
 * child run of the suite or the command line (they take from a few seconds to about a minute alone;
 * past it the child is killed and its test says so), TEST_HANG_MS for a test or hook
 * (selftest/vitest.config.ts), a minute more so that a child's kill comes first.
 */
export const HANG_MS = 20 * 60_000;
export const TEST_HANG_MS = HANG_MS + 60_000;

export function tempDir(prefix = 'pc-selftest-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every file under a folder (a run's reports: the summaries, the evidence, a certification pack). */
export function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

export interface SuiteRun {
  code: number | null;
  stdout: string;
  stderr: string;
  summary?: RunSummary;
  reportDir: string;
  wallMs: number;
}

/**
 * The environment of a selftest's own run of the suite: one worker. The selftest runs several suite runs
 * at once on a small machine, and every worker of a run imports the harness and prepares its areas once
 * (the suite's default of six is for a run that waits on a remote target). A run that waits on a
 * target's deadlines sets more.
 */
export const SELFTEST_RUN = { CONFORMANCE_WORKERS: '1' } as const;

/** The same at the quick depth, for a run whose assertions do not depend on how many cases each property tries. */
export const QUICK_RUN = { ...SELFTEST_RUN, CONFORMANCE_DEPTH: 'quick' } as const;

/** Runs the conformance suite as a user does (`partner-conformance run`, what `npm test` runs) in a child process and reads its summary. */
export function runSuite(options: {
  env?: Record<string, string>;
  files?: string[];
  reportDir?: string;
  /** When the child is taken for hung and killed (default HANG_MS). */
  timeoutMs?: number;
  onStart?: (pid: number) => void;
}): Promise<SuiteRun> {
  const reportDir = options.reportDir ?? tempDir('pc-report-');
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'run', ...(options.files ?? [])], {
      cwd: ROOT,
      env: { ...process.env, CONFORMANCE_REPORT_DIR: reportDir, FORCE_COLOR: '0', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) options.onStart?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? HANG_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      let summary: RunSummary | undefined;
      try {
        summary = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as RunSummary;
      } catch {
        summary = undefined;
      }
      resolve({ code, stdout, stderr, summary, reportDir, wallMs: Date.now() - started });
    });
  });
}

/** A child process run to its end (or killed past `timeoutMs`), its stdout and stderr as one text. */
export function runCaptured(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => (output += String(error)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * `allure generate` (Allure 3, the nightly templates' report) of a run's allure-results into
 * <reportDir>/allure-report, with the nightly's configuration; `cwd` holds its history (history/).
 */
export function allureReport(
  reportDir: string,
  options: { cwd?: string; results?: string[] } = {},
): Promise<{ code: number | null; output: string }> {
  const results = options.results ?? [join(reportDir, 'allure-results')];
  const config = join(ROOT, 'examples', 'ci', 'allurerc.yaml');
  return runCaptured(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'allure', 'cli.js'),
      'generate',
      ...results,
      '--config',
      config,
      '--output',
      join(reportDir, 'allure-report'),
    ],
    { cwd: options.cwd ?? tempDir('pc-allure-'), env: { ...process.env, NO_COLOR: '1' }, timeoutMs: 180_000 },
  );
}

/**
 * A response as the HTTP client captures it, for unit tests of checks: a string body is kept raw,
 * anything else is serialised; the body is parsed as JSON, or the parse error is kept.
 */
export function cannedResponse(status: number, body?: unknown, headers: Record<string, string> = {}, durationMs = 1): CapturedResponse {
  const rawBody = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  let jsonError: string | undefined;
  try {
    json = rawBody ? JSON.parse(rawBody) : undefined;
  } catch (error) {
    jsonError = (error as Error).message;
  }
  return {
    status,
    headers,
    rawBody,
    json,
    jsonError,
    durationMs,
    retried429: 0,
    request: { method: 'POST', url: 'http://x/', headers: {} },
    curl: 'curl',
  };
}
