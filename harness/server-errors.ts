/**
 * Operations that answered a valid request with a 5xx anywhere in this run, across test workers. Every
 * 5xx counts: once an operation has failed a valid request, an answer of it that looks right proves
 * nothing (a flaky target may serve a repeat, and another worker may have sent the same request
 * first). Workers share the record through one small file per run in the temporary folder, named after
 * the vitest main process and the run's pacer, appended to as 5xx answers come and read when a verdict
 * needs it. Outside a run (selftests) the record stays in memory. Records of runs that ended more than
 * a day ago are removed when a run writes its first one.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { removeOldRunFiles, runFile } from './run-files.ts';

const local = new Map<string, string>();

/** A line of the record; undefined for an empty line, or one another worker is still writing. */
function parsed(line: string): { operation: string; what: string } | undefined {
  try {
    return line ? (JSON.parse(line) as { operation: string; what: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** Records that `operation` ("METHOD /path") answered a request with a 5xx; `what` says which and how. */
export function recordServerError(operation: string, what: string): void {
  if (!local.size) removeOldRunFiles('server-errors');
  if (!local.has(operation)) local.set(operation, what);
  const path = runFile('server-errors', '.jsonl');
  if (path) appendFileSync(path, `${JSON.stringify({ operation, what })}\n`);
}

/** What the first 5xx of `operation` to a valid request in this run was, or undefined when there was none. */
export function serverErrorOf(operation: string): string | undefined {
  const path = runFile('server-errors', '.jsonl');
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
