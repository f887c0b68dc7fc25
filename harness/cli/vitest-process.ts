/** Runs the conformance vitest project in a child process, output passed through, and says how it ended. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORCE_EXIT_MS } from '../runner/stop-on-signal.ts';
import { interruption, signalToPass } from './interruption.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** How long vitest has, once told to stop, to write what it has and end before it is killed (it ends itself by FORCE_EXIT_MS). */
const KILL_AFTER_MS = FORCE_EXIT_MS + 4_000;

export function vitestEntry(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
}

/**
 * `vitest run --config vitest.config.ts …args` in the project root, with `env` on top of this process's.
 * When `stop` aborts (this process was interrupted), vitest is told with the same signal and ends its run
 * (harness/runner/stop-on-signal.ts); one that has not ended KILL_AFTER_MS later is killed.
 */
export function runVitest(args: string[], env: Record<string, string>, stop: AbortSignal = interruption()): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitestEntry(), 'run', '--config', join(PROJECT_ROOT, 'vitest.config.ts'), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    let killer: NodeJS.Timeout | undefined;
    const pass = () => {
      child.kill(signalToPass(stop.reason));
      killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    };
    if (stop.aborted) pass();
    else stop.addEventListener('abort', pass, { once: true });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      stop.removeEventListener('abort', pass);
      resolve(code ?? (signal ? 2 : 1));
    });
  });
}
