/** Runs the conformance vitest project in a child process, output passed through, and says how it ended. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function vitestEntry(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
}

/** `vitest run --config vitest.config.ts …args` in the project root, with `env` on top of this process's. */
export function runVitest(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitestEntry(), 'run', '--config', join(PROJECT_ROOT, 'vitest.config.ts'), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 2 : 1));
    });
  });
}
