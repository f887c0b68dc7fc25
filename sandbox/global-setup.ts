/**
 * vitest globalSetup, listed before the harness's: when the run names no target file
 * (CONFORMANCE_TARGET) and is not a batch run (CONFORMANCE_BATCH), starts the embedded sandbox on free
 * loopback ports with the faults of CONFORMANCE_SANDBOX_FAULTS (comma-separated ids), writes its target
 * file and names it in CONFORMANCE_TARGET, so that the harness's global setup loads it as any target
 * file. The variables are read here directly, with the meaning README's Settings table gives them: the
 * sandbox imports nothing of the harness. The only place outside selftest/ and the sandbox's own command
 * that starts the sandbox. It tells the run's other setups which sandbox it started (`embeddedSandbox`,
 * vitest's provided context), so that the run's reports can say so: a rerun of its failures must start
 * one with the same faults.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startSandbox } from './server.ts';
import { SANDBOX_AREAS } from './faults/types.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The embedded sandbox this run started: its target file and the faults it serves. */
    embeddedSandbox?: Started;
  }
}

interface Started {
  targetFile: string;
  faults: string[];
}

interface Shared {
  /** The sandbox started, or undefined when the run needs none. */
  ready: Promise<Started | undefined>;
  close: () => Promise<void>;
  users: number;
}
const KEY = Symbol.for('partner-conformance.sandbox-global-setup');
const store = globalThis as unknown as Record<symbol, Shared | undefined>;

const given = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
const list = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function start(): Shared {
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  const ready = (async () => {
    if (given(process.env.CONFORMANCE_TARGET) || given(process.env.CONFORMANCE_BATCH)) return undefined;
    const faults = list(process.env.CONFORMANCE_SANDBOX_FAULTS);
    // A run of some areas (CONFORMANCE_AREAS) gets a sandbox of those areas only, unless it switches faults
    // on (a fault may be another area's); names that are no area are the harness's to refuse.
    const areas = list(process.env.CONFORMANCE_AREAS).filter((a) => (SANDBOX_AREAS as readonly string[]).includes(a));
    const sandbox = await startSandbox({ faults, areas: areas.length && !faults.length ? areas : undefined });
    const dir = mkdtempSync(join(tmpdir(), 'pc-target-'));
    closers.push(async () => {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const file = sandbox.writeTarget(join(dir, 'sandbox-target.yaml'));
    process.env.CONFORMANCE_TARGET = file;
    closers.push(async () => {
      if (process.env.CONFORMANCE_TARGET === file) delete process.env.CONFORMANCE_TARGET;
    });
    return { targetFile: file, faults: sandbox.faults };
  })().catch(async (error) => {
    await close();
    throw error;
  });
  return { ready, close, users: 0 };
}

/** Every project of the run calls it; the first starts the sandbox, the last one's teardown closes it. */
export default async function setup(project: TestProject) {
  const shared = (store[KEY] ??= start());
  shared.users++;
  const started = await shared.ready;
  if (started) project.provide('embeddedSandbox', started);
  return async () => {
    shared.users--;
    if (shared.users === 0) {
      store[KEY] = undefined;
      await shared.close();
    }
  };
}
