/**
 * Checks many sandbox variants in one vitest run (harness/runner/batch.ts): every variant's sandbox is
 * started in this process (each on its own ports, with its faults, latitudes or degenerate answers on),
 * a wrapper file per variant and suite file is written under `.variants/`, and one vitest run with a few
 * warm workers runs them all. The fault run, the latitude run and the degenerate targets use it, so that
 * no variant pays for a process, the harness's imports or the business document's preparation again.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { settleDependencies } from '../../harness/report/dependencies.ts';
import type { TestRecord } from '../../harness/report/records.ts';
import type { RunSummary } from '../../harness/report/summary-reporter.ts';
import { CI_SEED } from '../../harness/runner/settings.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { ROOT, tempDir } from '../helpers.ts';

export interface VariantSpec {
  /** The variant's name in the batch: a fault, latitude or degenerate target id, or `clean`. */
  id: string;
  /** What the variant's sandbox switches on (fault, latitude or target-wide fault ids). */
  switches: string[];
  /** Suite files (relative to the project root) that run against it. */
  files: string[];
  /** Only the tests of these requirements. */
  only?: string[];
}

export interface BatchRun {
  /** Every test record of the run, by variant. */
  byVariant: Map<string, TestRecord[]>;
  summary?: RunSummary;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every file the run wrote into its report folder, with its text (for the leak scan). */
  reports: Array<[string, string]>;
  wallMs: number;
  /** When it began, in seconds since this process started (where it fell in the run's timeline). */
  startedAtS: number;
}

export interface BatchOptions {
  credentials?: Record<string, Record<string, string>>;
  workers?: number;
  timeoutMs?: number;
  /** Extra environment of the vitest run. */
  env?: Record<string, string>;
}

const WRAPPERS = '.variants';

function vitestEntry(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
}

/** The wrapper of one suite file for one variant: enter the variant, then import the file as a module of its own. */
function wrapper(at: string, variant: string, file: string): string {
  const to = (path: string) => {
    const rel = relative(dirname(at), join(ROOT, path)).split('\\').join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  return [
    `import { enterVariant } from '${to('harness/runner/batch.ts')}';`,
    `enterVariant(${JSON.stringify(variant)});`,
    `await import(${JSON.stringify(`${to(file)}?variant=${encodeURIComponent(variant)}`)});`,
    '',
  ].join('\n');
}

function* walk(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Runs every variant's files against its own sandbox in one vitest run, and returns the records by variant. */
export async function runBatch(specs: VariantSpec[], options: BatchOptions = {}): Promise<BatchRun> {
  const started = Date.now();
  const startedAtS = process.uptime();
  const work = tempDir('pc-batch-');
  const name = `batch-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const dir = join(ROOT, WRAPPERS, name);
  const sandboxes: RunningSandbox[] = [];
  try {
    const variants = [];
    for (const spec of specs) {
      const sandbox = await startSandbox({ faults: spec.switches, credentials: options.credentials });
      sandboxes.push(sandbox);
      const targetFile = sandbox.writeTarget(join(work, `${spec.id}.target.yaml`));
      variants.push({ id: spec.id, targetFile, only: spec.only });
      for (const file of spec.files) {
        const at = join(dir, spec.id, file);
        mkdirSync(dirname(at), { recursive: true });
        writeFileSync(at, wrapper(at, spec.id, file));
      }
    }
    const manifest = join(work, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ dir: relative(ROOT, dir).split('\\').join('/'), variants }));
    const reportDir = join(work, 'reports');
    const env = {
      ...process.env,
      CONFORMANCE_BATCH: manifest,
      CONFORMANCE_REPORT_DIR: reportDir,
      CONFORMANCE_SEED: String(CI_SEED),
      CONFORMANCE_SHRINK: '0',
      // One worker: each worker imports the harness and prepares what its variants share (the business
      // plan's schemas and generated requests per document) once, so every further worker pays that again.
      // Batch runs go side by side instead (selftest/variants/pool.ts), one more than there are cores: on
      // two cores the fault and latitude runs took 600 core-s in 322 s, against 680 in 330 to 358 s with
      // two workers per batch and one batch per core.
      CONFORMANCE_WORKERS: String(options.workers ?? 1),
      CONFORMANCE_PROGRESS: '0',
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      ...options.env,
    };
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [vitestEntry(), 'run', '--config', join(ROOT, 'vitest.config.ts')], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 1_800_000);
      child.on('error', reject);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve({ code: c, stdout: out, stderr: err });
      });
    });
    let summary: RunSummary | undefined;
    try {
      summary = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as RunSummary;
    } catch {
      summary = undefined;
    }
    const prefix = `${relative(ROOT, dir).split('\\').join('/')}/`;
    const byVariant = new Map<string, TestRecord[]>(specs.map((s) => [s.id, []]));
    for (const t of summary?.tests ?? []) {
      const variant = t.file.startsWith(prefix) ? t.file.slice(prefix.length).split('/')[0] : undefined;
      if (variant !== undefined) byVariant.get(variant)?.push({ ...t, file: t.file.slice(prefix.length + variant.length + 1) });
    }
    // The batch's summary settled dependencies over every variant at once; each variant is its own run.
    for (const [variant, tests] of byVariant) byVariant.set(variant, settleDependencies(tests));
    const reports: Array<[string, string]> = [];
    for (const file of walk(reportDir)) reports.push([relative(reportDir, file), readFileSync(file, 'utf8')]);
    return { byVariant, summary, code, stdout, stderr, reports, wallMs: Date.now() - started, startedAtS };
  } finally {
    await Promise.all(sandboxes.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}
