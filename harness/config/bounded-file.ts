/**
 * Reading a file the user hands us (a target file, a waiver file) without trusting its size: at most
 * 1 MiB is read, so a wrong path to a log or an image ends in one short message, not in memory.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export const MAX_TARGET_FILE_BYTES = 1024 * 1024;

/** The file's text; `invalid(what)` makes the error for a file that cannot be read or is too large. */
export function readBounded(file: string, invalid: (what: string) => Error, usualSize: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw invalid(`cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  try {
    const buffer = Buffer.alloc(MAX_TARGET_FILE_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_TARGET_FILE_BYTES)
      throw new TooLarge(invalid(`is larger than ${MAX_TARGET_FILE_BYTES / 1024 / 1024} MiB; ${usualSize}`));
    return buffer.subarray(0, length).toString('utf8');
  } catch (error) {
    if (error instanceof TooLarge) throw error.error;
    throw invalid(`cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  } finally {
    closeSync(fd);
  }
}

/** Carries the too-large error past the catch that turns read errors into "cannot be read". */
class TooLarge {
  constructor(readonly error: Error) {}
}
