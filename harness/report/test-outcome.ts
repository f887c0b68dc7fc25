/**
 * A vitest test case's outcome in the project's terms, for every reporter alike (the per-file console
 * lines, the progress line, the summary): its verdict from vitest's state and the test's meta, and a
 * test that never ran because a hook before it failed (a describe's beforeAll that timed out), which
 * vitest leaves skipped without a reason, as the tool error it is.
 */
import type { TestCase } from 'vitest/node';
import { codeOf, verdictOf, type VitestState } from './records.ts';
import type { Verdict } from '../suite.ts';
import type { ErrorCode } from '../errors.ts';

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

export function outcomeOf(test: TestCase): { verdict: Verdict; code?: ErrorCode } {
  const hook = hookErrorOf(test);
  if (hook) return verdictOf('failed', {}, hookMessage(hook));
  const result = test.result();
  const text = result.state === 'failed' ? result.errors?.[0]?.message : result.state === 'skipped' ? result.note : undefined;
  return verdictOf(vitestStateOf(test), test.meta(), text);
}
