/**
 * A run told to stop before its end (SIGINT, SIGTERM or SIGHUP to one of its processes, or the end of the
 * process that started it): what stopped it and when, for the reports, and a notice to every thread of
 * the vitest process, so that the HTTP client sends nothing after it, whichever test, hook or file
 * would. vitest's own cancel aborts the running tests' signals, which ends their requests and waits;
 * this notice also holds for a request no test owns (a document fetched while a file is collected).
 */
import { BroadcastChannel } from 'node:worker_threads';

export interface Interruption {
  /** What stopped the run: the signal's name, or the process that ended. */
  by: string;
  /** When (ISO 8601). */
  at: string;
}

const CHANNEL = 'partner-conformance:run-interrupted';
const KEY = Symbol.for('partner-conformance.interruption');
const store = globalThis as unknown as Record<symbol, { interruption?: Interruption; channel?: BroadcastChannel } | undefined>;

function state() {
  return (store[KEY] ??= {});
}

/** Records the interruption in this thread and tells every other thread of the process. */
export function interruptRun(by: string): Interruption {
  const own = state();
  own.interruption ??= { by, at: new Date().toISOString() };
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(own.interruption);
  channel.close();
  return own.interruption;
}

/** The run's interruption as this thread knows it, or undefined while the run goes on. */
export function runInterruption(): Interruption | undefined {
  const own = state();
  if (!own.channel) {
    // Listened to from the first question on: a thread asks before its first request.
    own.channel = new BroadcastChannel(CHANNEL);
    own.channel.onmessage = (event) => {
      own.interruption ??= event.data as Interruption;
    };
    own.channel.unref();
  }
  return own.interruption;
}

/**
 * Whether the run was interrupted, as a test sees it: told so, or its signal aborted by vitest's cancel
 * of the run (which may reach the worker before the notice does).
 */
export function interruptedBy(testSignal?: AbortSignal): boolean {
  if (runInterruption()) return true;
  const reason = testSignal?.aborted ? (testSignal.reason as { name?: unknown } | undefined) : undefined;
  return reason?.name === 'TestRunAbortError';
}

/** The words a report gives an interrupted run. */
export function interruptionLine(interruption: Interruption, startedAt?: string): string {
  const after = startedAt ? ` after ${Math.round((Date.parse(interruption.at) - Date.parse(startedAt)) / 1000)} s` : '';
  return `interrupted (${interruption.by})${after}: these results are partial, what the run had not reached was not run`;
}
