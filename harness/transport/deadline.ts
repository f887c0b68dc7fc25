/**
 * One request's abort signal: the request's total deadline (connect, headers and the whole body) and
 * the running test's budget (or the run's interruption, which aborts the test's signal too), whichever
 * comes first. Says afterwards which one it was, so that the error can name it. Built on one
 * AbortController with a timer and a listener, both released by `dispose`, so that thousands of
 * requests leave no timers or listeners behind on the test's signal.
 */
import { interruptedBy } from '../runner/interruption.ts';

export type AbortCause = 'deadline' | 'test-budget' | 'interrupted';

export class RequestDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private cause: AbortCause | undefined;
  // The test's signal aborts at the end of its budget, and when vitest cancels an interrupted run.
  private readonly onTestAbort = () => this.abort(interruptedBy(this.testSignal) ? 'interrupted' : 'test-budget');

  constructor(
    readonly deadlineMs: number,
    private readonly testSignal?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => this.abort('deadline'), deadlineMs);
    if (testSignal?.aborted) this.onTestAbort();
    else testSignal?.addEventListener('abort', this.onTestAbort, { once: true });
  }

  /** Why the signal aborted, or undefined while it has not. */
  get abortedBy(): AbortCause | undefined {
    return this.cause;
  }

  private abort(cause: AbortCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.controller.abort(
      new Error(
        cause === 'deadline'
          ? `deadline of ${this.deadlineMs} ms passed`
          : cause === 'interrupted'
            ? 'the run was interrupted'
            : "the test's time budget ran out",
      ),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.testSignal?.removeEventListener('abort', this.onTestAbort);
  }
}
