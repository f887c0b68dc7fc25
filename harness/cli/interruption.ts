/**
 * The command line's side of stopping a run. A command that starts a run (`run`, `certify`) or the
 * sandbox keeps going on SIGINT, SIGTERM or SIGHUP, and when the process that started it ends (a CI
 * runner that cancels `npm test` signals npm alone, runner/parent-watch.ts): it passes the stop on to its
 * children, which end what they do and write what they have, cleans up after itself, and exits 2.
 */
import { watchParents } from '../runner/parent-watch.ts';
import { startedByNpmScript } from '../runner/settings.ts';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

let stop: AbortController | undefined;

/**
 * Aborted, with what stopped the process as its reason (a signal's name, or the process that ended), at
 * the first such event; installed at the first call.
 */
export function interruption(): AbortSignal {
  if (stop) return stop.signal;
  const controller = new AbortController();
  stop = controller;
  const end = (by: string) => {
    if (controller.signal.aborted) return;
    console.error(`partner-conformance: ${by.startsWith('SIG') ? `${by} received` : by}; stopping, and reporting what was done`);
    controller.abort(by);
  };
  for (const signal of SIGNALS) process.on(signal, () => end(signal));
  // Started by an npm script, this process's parent is npm's shell, which a killed npm can leave behind.
  watchParents(end, { npmScript: startedByNpmScript() });
  return controller.signal;
}

/** The signal to pass on to a child for what stopped this process: the same signal, or SIGHUP (its caller hung up). */
export function signalToPass(by: unknown): NodeJS.Signals {
  return (SIGNALS as readonly unknown[]).includes(by) ? (by as NodeJS.Signals) : 'SIGHUP';
}
