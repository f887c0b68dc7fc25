/**
 * Small files that the workers of one vitest run share in the temporary folder (a record of 5xx
 * answers, the fixtures a worker has claimed), named after the run's main process and its pacer so
 * that two runs never mix. Outside a run (selftests) there is none, and callers keep their record in
 * memory. Files of runs that ended more than a day ago are removed by the first writer of a run.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

let scope: string | undefined | null;

/** The run's own name, the same in every worker; undefined outside a run. */
function runScope(): string | undefined {
  if (scope !== undefined) return scope ?? undefined;
  let pacer: string | undefined;
  try {
    pacer = inject('pacerUrl');
  } catch {
    pacer = undefined;
  }
  scope = pacer ? `${process.ppid}-${createHash('sha256').update(pacer).digest('hex').slice(0, 12)}` : null;
  return scope ?? undefined;
}

/** The path of this run's file (or folder) `pc-<kind>-<run><suffix>`; undefined outside a run. */
export function runFile(kind: string, suffix = ''): string | undefined {
  const run = runScope();
  return run ? join(tmpdir(), `pc-${kind}-${run}${suffix}`) : undefined;
}

const DAY_MS = 86_400_000;

/** Best effort: the files of old runs of this kind go; a file another worker is using is never a day old. */
export function removeOldRunFiles(kind: string): void {
  try {
    for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(`pc-${kind}-`))) {
      const path = join(tmpdir(), name);
      if (Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { force: true, recursive: true });
    }
  } catch {
    // Nothing to clean, or not ours to clean.
  }
}
