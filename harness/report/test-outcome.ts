/**
 * A vitest test case's outcome in the project's terms, for every reporter alike (the per-file console
 * lines, the progress line, the summary): its verdict from vitest's state and the test's meta; a test
 * that never ran because a hook before it failed (a describe's beforeAll that timed out), which vitest
 * leaves skipped without a reason, as the tool error it is; a test the run stopped before (`--bail`, an
 * interruption), which vitest leaves the same way, as RUN_STOPPED (--bail) or RUN_INTERRUPTED with why; and a test a name filter left
 * out (`--grep`, `-t`, `--only-failed`), which is no result at all.
 */
import type { TestCase, Vitest } from 'vitest/node';
import { codeOf, verdictOf, type VitestState } from './records.ts';
import type { Verdict } from '../test/suite.ts';
import type { ErrorCode } from '../errors.ts';

/** vitest's reason for cancelling a run when `--bail` reached its number of failed tests. */
const BAIL = 'test-failure';
/** vitest's note on a test a cancelled run marked skipped while its file was running (whatever cancelled it). */
const VITEST_ABORT_NOTE = 'The test run was aborted by the user.';

interface RunStop {
  /** vitest's cancel reason: `test-failure` for --bail, or what interrupted the run. */
  reason: string;
  /** Why the tests it kept from running did not run: a code (RUN_STOPPED for --bail, RUN_INTERRUPTED) and words. */
  why: string;
}

let stop: RunStop | undefined;
let listening = false;

/** At the start of a run: nothing has stopped it yet. */
export function runStarted(): void {
  stop = undefined;
  listening = false;
}

function stopped(reason: string, bail: number): RunStop {
  return {
    reason,
    why:
      reason === BAIL
        ? `RUN_STOPPED: vitest --bail ${bail}: the run stopped after ${bail} failed test(s), before this test ran`
        : `RUN_INTERRUPTED: the run was interrupted (${reason}) before this test ran`,
  };
}

/**
 * Listens for the run being cancelled. vitest forgets its cancel listeners when a run starts, after it
 * tells the reporters so: a reporter calls this once a module of the run is queued.
 */
export function listenForStop(vitest: Pick<Vitest, 'onCancel' | 'config'>): void {
  if (listening) return;
  listening = true;
  vitest.onCancel((reason) => {
    stop = stopped(reason, vitest.config.bail ?? 0);
  });
}

/** A run vitest says was interrupted, whose cancel no listener heard (it came before any module was queued). */
export function runInterrupted(): void {
  stop ??= stopped('cancelled before a file of it ran', 0);
}

/** What stopped the run before every test ended; undefined when nothing did. */
export function runStop(): (RunStop & { bail: boolean }) | undefined {
  return stop && { ...stop, bail: stop.reason === BAIL };
}

/** The note vitest keeps with a skipped test (`ctx.skip(note)`, or its own when a run is cancelled). */
export function noteOf(test: TestCase): string | undefined {
  const result = test.result();
  return result.state === 'skipped' ? result.note : undefined;
}

/** A test a name filter left out (--grep, -t, --only-failed): vitest skips it without a reason. Not a result, not counted. */
export function isFilteredOut(test: TestCase): boolean {
  const { state } = test.result();
  return test.options.mode === 'skip' && (state === 'skipped' || state === 'pending') && !noteOf(test);
}

/** A test skipped without a reason, as vitest leaves the tests of a describe whose hook failed. */
function notRun(test: TestCase): boolean {
  const result = test.result();
  return result.state === 'skipped' && !result.note && test.options.mode !== 'skip' && test.options.mode !== 'todo';
}

/** The error of a hook that kept a test from running: of its describe blocks or its file, the nearest that has one. */
export function hookErrorOf(test: TestCase): { where: string; message: string } | undefined {
  if (!notRun(test)) return undefined;
  for (let parent: TestCase['parent'] = test.parent; ; parent = parent.parent) {
    const errors = parent.errors();
    if (errors.length)
      return {
        where: parent.type === 'suite' ? parent.name : parent.relativeModuleId,
        message: errors.map((e) => e.message ?? String(e)).join('\n'),
      };
    if (parent.type === 'module') return undefined;
  }
}

/** The message of a test a failed hook kept from running (a tool error: its code, or SUITE_ERROR). */
export function hookMessage(hook: { where: string; message: string }): string {
  // A hook out of time is a run out of time, as a test is: TARGET_TIMEOUT, never a contract result.
  const code = codeOf(hook.message) ? '' : VITEST_HOOK_TIMEOUT.test(hook.message) ? 'TARGET_TIMEOUT: ' : 'SUITE_ERROR: ';
  return `${code}a hook of "${hook.where}" failed, so this test did not run: ${hook.message}`;
}

/** vitest's message when a hook outlives its timeout. */
const VITEST_HOOK_TIMEOUT = /^Hook timed out in \d+ms/;

export function vitestStateOf(test: TestCase): VitestState {
  const { state } = test.result();
  return state === 'failed' ? 'failed' : state === 'passed' ? 'passed' : 'skipped';
}

/**
 * Why a test did not run when the run stopped before it (RUN_STOPPED: … for --bail, RUN_INTERRUPTED: …), or undefined: a test of a file
 * that never started is still pending, one of a file that was running is skipped with vitest's note, or
 * with none.
 */
export function stoppedNote(test: TestCase): string | undefined {
  if (!stop) return undefined;
  const result = test.result();
  const cut = result.state === 'pending' || noteOf(test) === VITEST_ABORT_NOTE || notRun(test);
  return cut && !hookErrorOf(test) ? stop.why : undefined;
}

export function outcomeOf(test: TestCase): { verdict: Verdict; code?: ErrorCode } {
  const hook = hookErrorOf(test);
  if (hook) return verdictOf('failed', {}, hookMessage(hook));
  const result = test.result();
  const state = vitestStateOf(test);
  const text = state === 'failed' ? result.errors?.[0]?.message : state === 'skipped' ? (stoppedNote(test) ?? noteOf(test)) : undefined;
  return verdictOf(state, test.meta(), text);
}
