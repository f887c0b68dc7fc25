/**
 * A record that every worker process of one conformance run shares. Vitest gives workers no channel to
 * each other and isolates every test file, so what one test learns (an operation answered a 5xx, an
 * origin stopped answering, a service asked the suite to stop) would otherwise be forgotten at the next
 * file and never known to the other workers. The record is one small append-only file of JSON lines in
 * the temporary folder, named after the vitest main process and the run's pacer; a reader keeps its
 * place and reads only what was added since (a line another worker is still writing waits for its end).
 * Outside a run (selftests, scripts) a record lives in memory. Records of runs that ended more than a
 * day ago are removed when a process opens its first one.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

export interface SharedRecord<T> {
  append(entry: T): void;
  /** Every entry so far, in the order appended; the same array grows between calls. */
  entries(): readonly T[];
}

export function memoryRecord<T>(): SharedRecord<T> {
  const list: T[] = [];
  return { append: (entry) => void list.push(entry), entries: () => list };
}

const NEWLINE = 0x0a;

/** A record in a file that other processes append to as well. */
export function fileRecord<T>(path: string): SharedRecord<T> {
  const list: T[] = [];
  let offset = 0;
  return {
    append(entry) {
      appendFileSync(path, `${JSON.stringify(entry)}\n`);
    },
    entries() {
      // Asked before every request: a record nobody has written to (a healthy run) costs one stat.
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      if (size <= offset) return list;
      const fd = openSync(path, 'r');
      try {
        const bytes = Buffer.alloc(size - offset);
        const read = readSync(fd, bytes, 0, bytes.length, offset);
        const end = bytes.subarray(0, read).lastIndexOf(NEWLINE);
        if (end < 0) return list;
        for (const line of bytes.subarray(0, end).toString('utf8').split('\n')) {
          try {
            if (line) list.push(JSON.parse(line) as T);
          } catch {
            // Not a line of ours: skipped rather than stopping every later reader.
          }
        }
        offset += end + 1;
        return list;
      } finally {
        closeSync(fd);
      }
    },
  };
}

const PREFIX = 'pc-run-';
const DAY_MS = 86_400_000;
let cleaned = false;

/** Best effort: the records of old runs go; a record a running run uses is never a day old. */
function removeOldRecords(): void {
  if (cleaned) return;
  cleaned = true;
  try {
    for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX))) {
      const path = join(tmpdir(), name);
      if (Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { force: true });
    }
  } catch {
    // Nothing to clean, or not ours to clean.
  }
}

/** The file of the run's record `name`, or undefined outside a conformance run. */
export function runRecordPath(name: string): string | undefined {
  let pacer: string | undefined;
  try {
    pacer = inject('pacerUrl');
  } catch {
    pacer = undefined;
  }
  if (!pacer) return undefined;
  // Workers are forked by the vitest main process: its pid and the pacer's port name one run.
  return join(tmpdir(), `${PREFIX}${process.ppid}-${createHash('sha256').update(pacer).digest('hex').slice(0, 12)}-${name}.jsonl`);
}

const opened = new Map<string, SharedRecord<unknown>>();

/**
 * The run's record `name`, shared by every worker and file of the run; outside a run, a new record in
 * memory on each call (each caller keeps its own, as a lone client or a selftest expects).
 */
export function runRecord<T>(name: string): SharedRecord<T> {
  const path = runRecordPath(name);
  if (!path) return memoryRecord<T>();
  removeOldRecords();
  let record = opened.get(path);
  if (!record) opened.set(path, (record = fileRecord<unknown>(path)));
  return record as SharedRecord<T>;
}
