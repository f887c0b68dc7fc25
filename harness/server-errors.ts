/**
 * Operations that answered a valid request with a 5xx anywhere in this run, across test workers. Every
 * 5xx counts: once an operation has failed a valid request, an answer of it that looks right proves
 * nothing (a flaky target may serve a repeat, and another worker may have sent the same request
 * first). Workers share the record through one small file per run in the temporary folder, named after
 * the vitest main process and the run's pacer, appended to as 5xx answers come and read when a verdict
 * needs it. Outside a run (selftests) the record stays in memory. Records of runs that ended more than
 * a day ago are removed when a run writes its first one.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { currentScope } from './runner/run-scope.ts';

const local = new Map<string, string>();

/** The operation as recorded: a batch run's variants are separate targets, each with its own record. */
function keyOf(operation: string): string {
  let variant: string | undefined;
  try {
    variant = currentScope().variant;
  } catch {
    variant = undefined;
  }
  return variant ? `${variant} ${operation}` : operation;
}
let file: string | undefined | null;

function runFile(): string | undefined {
  if (file !== undefined) return file ?? undefined;
  let pacer: string | undefined;
  try {
    pacer = inject('pacerUrl');
  } catch {
    pacer = undefined;
  }
  file = pacer ? join(tmpdir(), `pc-server-errors-${process.ppid}-${createHash('sha256').update(pacer).digest('hex').slice(0, 12)}.jsonl`) : null;
  return file ?? undefined;
}

/** A line of the record; undefined for an empty line, or one another worker is still writing. */
function parsed(line: string): { operation: string; what: string } | undefined {
  try {
    return line ? (JSON.parse(line) as { operation: string; what: string }) : undefined;
  } catch {
    return undefined;
  }
}

const DAY_MS = 86_400_000;

/** Best effort: the records of old runs go; a record another worker is using is never a day old. */
function removeOldRecords(): void {
  try {
    for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('pc-server-errors-'))) {
      const path = join(tmpdir(), name);
      if (Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { force: true });
    }
  } catch {
    // Nothing to clean, or not ours to clean.
  }
}

/** Records that `operation` ("METHOD /path") answered a request with a 5xx; `what` says which and how. */
export function recordServerError(name: string, what: string): void {
  const operation = keyOf(name);
  if (!local.size) removeOldRecords();
  if (!local.has(operation)) local.set(operation, what);
  const path = runFile();
  if (path) appendFileSync(path, `${JSON.stringify({ operation, what })}\n`);
}

/** What the first 5xx of `operation` to a valid request in this run was, or undefined when there was none. */
export function serverErrorOf(name: string): string | undefined {
  const operation = keyOf(name);
  const path = runFile();
  if (path) {
    try {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        const entry = parsed(line);
        if (entry?.operation === operation) return entry.what;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return local.get(operation);
}
