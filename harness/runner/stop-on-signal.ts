/**
 * A reporter only in name: vitest hands a reporter the running Vitest at start, which stopping a run
 * needs. On SIGINT, SIGTERM or SIGHUP, or when the process that started vitest ends (npm killed by a CI
 * runner), the run is interrupted: every thread is told to send nothing more (runner/interruption.ts),
 * vitest cancels the run (the running tests' signals abort their requests and waits, the tests not
 * started are not run), and the summary reporter writes what the run has, marked interrupted. vitest's
 * own handler of these signals exits at once and writes nothing: it is held back, and called only when
 * the run does not end within FORCE_EXIT_MS of the interruption (a second cancel has ended the workers
 * before that), or a signal comes before the run has begun (nothing was sent; the command line writes
 * the reports of a run that did not get to run).
 */
import { constants } from 'node:os';
import type { Reporter } from 'vitest/node';
import { interruptRun } from './interruption.ts';
import { watchParents } from './parent-watch.ts';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** How long the running tests of an interrupted run have to end before their workers are ended. */
const END_WORKERS_AFTER_MS = 3_000;
/** How long an interrupted run may take to write its reports and close before it is ended as vitest ends it. */
export const FORCE_EXIT_MS = 8_000;

interface RunControl {
  cancelCurrentRun(reason: string): Promise<void>;
}

export default class StopOnSignal implements Reporter {
  private vitest?: RunControl;
  private started = false;
  private stopping = false;
  private readonly held = new Map<NodeJS.Signals, NodeJS.SignalsListener[]>();

  onInit(vitest: RunControl): void {
    this.vitest = vitest;
    for (const signal of SIGNALS) {
      this.held.set(signal, process.listeners(signal));
      for (const listener of this.held.get(signal)!) process.off(signal, listener);
      process.on(signal, () => this.stop(signal));
    }
    watchParents((what) => this.stop(what));
  }

  onTestRunStart(): void {
    this.started = true;
  }

  private stop(by: string): void {
    // The same signal often comes twice: to the whole process group (Ctrl-C), and passed on by the command line.
    if (this.stopping) return;
    this.stopping = true;
    if (!this.started || !this.vitest) {
      this.exitAsVitestWould(by);
      return;
    }
    interruptRun(by);
    const vitest = this.vitest;
    void vitest.cancelCurrentRun('interrupted');
    // A worker still importing a file, or in a test that ignores its signal, holds a cancel up: a second one ends the workers.
    setTimeout(() => void vitest.cancelCurrentRun('interrupted'), END_WORKERS_AFTER_MS).unref();
    setTimeout(() => this.exitAsVitestWould(by), FORCE_EXIT_MS).unref();
  }

  private exitAsVitestWould(by: string): void {
    const signal = (SIGNALS as readonly string[]).includes(by) ? (by as NodeJS.Signals) : 'SIGTERM';
    const listeners = this.held.get(signal) ?? [];
    for (const listener of listeners) (listener as (signal: NodeJS.Signals, number: number) => void)(signal, constants.signals[signal]);
    if (!listeners.length) process.exit(2);
  }
}
