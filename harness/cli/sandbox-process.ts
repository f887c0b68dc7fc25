/**
 * The embedded sandbox in its own process (sandbox/cli.ts run by tsx), so that the harness never imports
 * the sandbox: `sandboxProcess` for `partner-conformance sandbox`, and `startStandaloneSandbox` for a
 * command that needs the sandbox's target file on disk for the whole run (certify records it, masked).
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from './vitest-process.ts';

export function sandboxProcess(argv: string[], stdio: StdioOptions): ChildProcess {
  // tsx as Node's loader rather than tsx's command, which would run the sandbox in a process of its own:
  // the sandbox is this process's child, and notices when this process ends (sandbox/cli.ts).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return spawn(process.execPath, ['--import', tsx, join(PROJECT_ROOT, 'sandbox', 'cli.ts'), ...argv], { stdio });
}

export interface StandaloneSandbox {
  targetFile: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/**
 * Starts the sandbox on free loopback ports with the given faults; resolves once its target file is
 * written. When `stop` aborts first, the sandbox is stopped, its folder removed, and the start rejected.
 */
export function startStandaloneSandbox(faults: readonly string[], stop?: AbortSignal): Promise<StandaloneSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'pc-sandbox-target-'));
  const targetFile = join(dir, 'sandbox-target.yaml');
  const child = sandboxProcess(
    ['--port', '0', '--target-out', targetFile, ...(faults.length ? ['--faults', faults.join(',')] : [])],
    ['ignore', 'pipe', 'pipe'],
  );
  // Never leave the sandbox behind, whatever ends this process.
  const orphanGuard = () => child.kill('SIGTERM');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  const close = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let output = '';
    let started = false;
    // Only the start can fail: once the target file is in use, the folder goes with `stop` alone.
    const fail = (error: Error) => {
      if (started) return;
      started = true;
      clearTimeout(timer);
      stop?.removeEventListener('abort', interrupted);
      void close().then(() => reject(error));
    };
    const timer = setTimeout(
      () => fail(new Error(`the sandbox did not start within ${START_TIMEOUT_MS / 1000} s: ${output.trim().slice(-500)}`)),
      START_TIMEOUT_MS,
    );
    const interrupted = () => fail(new Error(`the sandbox's start was interrupted (${String(stop?.reason)})`));
    if (stop?.aborted) interrupted();
    else stop?.addEventListener('abort', interrupted, { once: true });
    const read = (chunk: Buffer) => {
      output += chunk;
      if (!started && output.includes('target file:')) {
        started = true;
        clearTimeout(timer);
        stop?.removeEventListener('abort', interrupted);
        resolve({ targetFile, stop: close });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => fail(new Error(`the sandbox exited with ${code}: ${output.trim().slice(-500)}`)));
  });
}
