/**
 * `npm run selftest`: its phases one after the other, each run and reported even when an earlier one
 * failed (joined with `&&`, a unit test that failed on a busy machine kept the fault and latitude runs
 * from ever starting), and the script fails at the end if any did:
 *   1. the unit and end-to-end tests (vitest, selftest/vitest.config.ts);
 *   2. the fault and latitude runs (selftest/variant-runs.ts).
 * Each phase inherits the console; the closing lines give each phase's outcome and wall time. SIGINT or
 * SIGTERM goes on to the running phase, and no later phase starts.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { vitestEntry } from '../harness/cli/vitest-process.ts';
import { ROOT } from './helpers.ts';

export interface Phase {
  name: string;
  /** Node's arguments: the script and its own. */
  args: string[];
}

/** Runs every phase, in order, whatever the earlier ones gave; the number that failed (a phase not started counts). */
export async function runPhases(phases: Phase[], log: (line: string) => void = console.log): Promise<number> {
  let stopping: NodeJS.Signals | undefined;
  const lines: string[] = [];
  let failed = 0;
  for (const phase of phases) {
    if (stopping) {
      lines.push(`  ${phase.name}: not started (${stopping})`);
      failed++;
      continue;
    }
    const started = Date.now();
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, phase.args, { cwd: ROOT, stdio: 'inherit' });
      const forward = (signal: NodeJS.Signals) => {
        stopping = signal;
        child.kill(signal);
      };
      process.on('SIGINT', forward).on('SIGTERM', forward);
      const done = (exit: number) => {
        process.off('SIGINT', forward).off('SIGTERM', forward);
        resolve(exit);
      };
      child.on('error', (error) => {
        log(`selftest: ${phase.name} could not start: ${error.message}`);
        done(1);
      });
      child.on('close', (exit, signal) => done(exit ?? (signal ? 1 : 0)));
    });
    if (code !== 0) failed++;
    lines.push(`  ${phase.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  log(`\nselftest phases:\n${lines.join('\n')}`);
  log(failed ? `selftest: ${failed} of ${phases.length} phases failed` : `selftest: all ${phases.length} phases passed`);
  return failed;
}

const require = createRequire(import.meta.url);

export const SELFTEST_PHASES: Phase[] = [
  { name: 'unit and end-to-end tests', args: [vitestEntry(), 'run', '--config', join(ROOT, 'selftest', 'vitest.config.ts')] },
  { name: 'fault and latitude runs', args: [require.resolve('tsx/cli'), join(ROOT, 'selftest', 'variant-runs.ts')] },
];

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = (await runPhases(SELFTEST_PHASES)) ? 1 : 0;
