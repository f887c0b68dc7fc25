/**
 * Helpers of the certification selftests that run the CLI as a certification team does: a standalone
 * sandbox whose target file names one area (a narrower mission keeps each run short), a key pair, and
 * `partner-conformance <args>` in a child process.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { startStandaloneSandbox } from '../../harness/cli/sandbox-process.ts';
import { CLI, HANG_MS, ROOT, tempDir } from '../helpers.ts';

/** A fixed seed, few runs per property and few workers: the selftests check the pack, not the target's depth. */
export const CERTIFY_ENV = {
  CONFORMANCE_SEED: '20261121',
  CONFORMANCE_WORKERS: '1',
  CONFORMANCE_RUNS: '',
  CONFORMANCE_DEPTH: '',
  CONFORMANCE_AREAS: '',
  CONFORMANCE_TARGET: '',
  CONFORMANCE_WAIVERS: '',
  CONFORMANCE_SIGNING_KEY: '',
  CONFORMANCE_SIGNING_KEY_FILE: '',
  CONFORMANCE_SANDBOX_FAULTS: '',
};
export const CERTIFY_RUNS = ['--depth', 'quick'];

export interface MissionSandbox {
  /** The target file: the sandbox's own, with `areas: [insurance]`, in a folder of its own. */
  targetFile: string;
  dir: string;
  stop(): Promise<void>;
}

export async function insuranceSandbox(faults: string[] = []): Promise<MissionSandbox> {
  const sandbox = await startStandaloneSandbox(faults);
  const dir = tempDir('pc-mission-');
  const targetFile = join(dir, 'target.yaml');
  const doc = parse(readFileSync(sandbox.targetFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    targetFile,
    stringify({ ...doc, name: `sandbox-insurance${faults.length ? `-${faults.join('-')}` : ''}`, areas: ['insurance'] }),
  );
  return { targetFile, dir, stop: sandbox.stop };
}

export function keyPair(): { keyFile: string; publicKeyFile: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const dir = tempDir('pc-keys-');
  writeFileSync(join(dir, 'key.pem'), privateKey);
  writeFileSync(join(dir, 'pub.pem'), publicKey);
  return { keyFile: join(dir, 'key.pem'), publicKeyFile: join(dir, 'pub.pem') };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = HANG_MS): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...CERTIFY_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export const readJson = <T = Record<string, unknown>>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
