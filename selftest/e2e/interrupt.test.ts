/**
 * A run told to stop stops: SIGTERM to npm alone (what a CI runner sends when it cancels `npm test`, and
 * which leaves the suite's own processes behind npm's shell), or to the vitest process alone. Within a
 * few seconds no process of the run is left, the target gets no request after the stop was noticed, and
 * the reports say that the run was interrupted and hold what it had done. The run is insurance alone,
 * against a standalone sandbox behind a proxy that records when each request arrived. `certify`
 * interrupted by Ctrl-C (SIGINT to its process group) while its sandbox starts, or as its run starts,
 * leaves no folder of its own in the temporary folder and writes no pack.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startStandaloneSandbox, type StandaloneSandbox } from '../../harness/cli/sandbox-process.ts';
import type { RunSummary } from '../../harness/report/records.ts';
import { CERTIFY_ENV, CERTIFY_RUNS } from '../certify/_cli.ts';
import { CLI, QUICK_RUN, ROOT, runSuite, tempDir } from '../helpers.ts';
import { recordingProxy, type FaultServer } from '../robustness/_servers.ts';

/** Every process below `pid`, from /proc (the run's shell, node, vitest, esbuild). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  const out: number[] = [];
  for (let queue = [pid]; queue.length; ) {
    const next = queue.shift()!;
    for (const child of children.get(next) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** A process that is gone, or a zombie waiting to be reaped, no longer runs. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** Requests that reach the target before the stop: the run is well under way. */
const UNDER_WAY = 25;
/** From the stop's notice on (the command line's line, or the signal to vitest), what may still arrive: requests already on their way. */
const IN_FLIGHT_MS = 1_500;

describe.runIf(existsSync('/proc/self/stat'))('a run told to stop', () => {
  let sandbox: StandaloneSandbox;
  let proxy: FaultServer;
  let target: string;

  beforeAll(async () => {
    sandbox = await startStandaloneSandbox([]);
    const doc = parse(readFileSync(sandbox.targetFile, 'utf8')) as { services: { insurance: { url: string } } };
    const url = new URL(doc.services.insurance.url);
    proxy = await recordingProxy(url.origin);
    doc.services.insurance.url = `${proxy.base}${url.pathname}`;
    target = join(tempDir('pc-interrupt-'), 'target.yaml');
    writeFileSync(target, stringify({ ...doc, name: 'interrupted', areas: ['insurance'] }));
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.stop();
  });

  it('SIGTERM to npm alone: every process of the run ends within seconds, nothing more is sent, and the reports say interrupted', async () => {
    const reportDir = tempDir('pc-report-');
    const from = proxy.arrivals.length;
    const npm = spawn('npm', ['test', '--', '--areas', 'insurance'], {
      cwd: ROOT,
      env: { ...process.env, ...QUICK_RUN, CONFORMANCE_TARGET: target, CONFORMANCE_REPORT_DIR: reportDir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let noticedAt = 0;
    const read = (chunk: Buffer) => {
      output += chunk;
      if (!noticedAt && output.includes('stopping, and reporting what was done')) noticedAt = Date.now();
    };
    npm.stdout.on('data', read);
    npm.stderr.on('data', read);
    await until(() => proxy.arrivals.length - from >= UNDER_WAY, 240_000);
    const tree = descendants(npm.pid!);
    expect(tree.length, 'npm, its shell, the command line and vitest').toBeGreaterThanOrEqual(3);
    const stoppedAt = Date.now();
    npm.kill('SIGTERM');
    const endedIn = await until(() => !tree.some(running), 30_000);
    console.log(
      `SIGTERM to npm: the run's ${tree.length} processes ended ${endedIn} ms later; the stop noticed after ${noticedAt - stoppedAt} ms`,
    );
    expect(endedIn, 'every process of the run ended within seconds').toBeLessThan(15_000);
    expect(noticedAt, output.slice(-2000)).toBeGreaterThan(0);
    const late = proxy.arrivals.filter((a) => a.at > noticedAt + IN_FLIGHT_MS);
    expect(late.map((a) => `${a.method} ${a.url} ${a.at - noticedAt} ms after the stop was noticed`)).toEqual([]);

    const summary = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as RunSummary;
    expect(summary.status).toBe('interrupted');
    expect(summary.interruption?.by).toBe('SIGHUP');
    expect(summary.counts.passed, 'what the run had done by then').toBeGreaterThan(0);
    expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toContain('<error type="RUN_INTERRUPTED"');
    expect(readFileSync(join(reportDir, 'conformance.md'), 'utf8')).toContain('these results are partial');
  }, 300_000);

  it('SIGTERM to vitest alone: the command line exits 2, and the reports say interrupted by SIGTERM', async () => {
    let cli = 0;
    const from = proxy.arrivals.length;
    const suiteRun = runSuite({
      env: { ...QUICK_RUN, CONFORMANCE_TARGET: target },
      files: ['suites/insurance/'],
      onStart: (pid) => (cli = pid),
    });
    await until(() => proxy.arrivals.length - from >= UNDER_WAY, 240_000);
    const [vitest] = descendants(cli).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('vitest.mjs'));
    expect(vitest).toBeGreaterThan(0);
    const stoppedAt = Date.now();
    process.kill(vitest, 'SIGTERM');
    const run = await suiteRun;
    const after = proxy.arrivals.filter((a) => a.at > stoppedAt + IN_FLIGHT_MS);
    expect(after.map((a) => `${a.method} ${a.url} ${a.at - stoppedAt} ms after SIGTERM`)).toEqual([]);
    expect(run.code, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(2);
    expect(run.summary?.status).toBe('interrupted');
    expect(run.summary?.interruption?.by).toBe('SIGTERM');
    expect(run.stdout).toMatch(/\ninterrupted \(SIGTERM\) after \d+ s: these results are partial/);
    expect(run.summary?.counts.passed).toBeGreaterThan(0);
  }, 300_000);
});

describe('certify told to stop (Ctrl-C: SIGINT to its process group)', () => {
  /** Runs certify in a group of its own and a temporary folder of its own, and sends SIGINT to the group once `ready` holds there. */
  async function interruptedCertify(ready: (names: string[]) => boolean) {
    const tmp = tempDir('pc-interrupt-tmp-');
    const out = join(tempDir('pc-pack-'), 'certification');
    const child = spawn(process.execPath, [CLI, 'certify', '--out', out, ...CERTIFY_RUNS], {
      cwd: ROOT,
      env: { ...process.env, ...CERTIFY_ENV, TMPDIR: tmp, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until(() => ready(readdirSync(tmp)), 240_000);
    process.kill(-child.pid!, 'SIGINT');
    const code = await ended;
    return { code, output, left: readdirSync(tmp).filter((n) => /^pc-(sandbox-target|certify-run|target)-/.test(n)), out };
  }

  it('while its sandbox starts, and as its run starts: exit 2, no pack, and none of its folders left behind', async () => {
    for (const [when, ready] of [
      ['while the sandbox starts', (names: string[]) => names.some((n) => n.startsWith('pc-sandbox-target-'))],
      ['as the run starts', (names: string[]) => names.some((n) => n.startsWith('pc-certify-run-'))],
    ] as const) {
      const run = await interruptedCertify(ready);
      expect(run.code, `${when}: ${run.output.slice(-2000)}`).toBe(2);
      expect(run.output, when).toContain('the certification run was interrupted (SIGINT); no pack was written');
      expect(run.output, when).not.toMatch(/\n\s+at |Node\.js v/);
      expect(run.left, when).toEqual([]);
      expect(existsSync(join(run.out, 'manifest.json')), when).toBe(false);
    }
  }, 300_000);
});
