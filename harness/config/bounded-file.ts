/**
 * Reading a file the user hands us (a target file, a waiver file, a key, a certificate) without trusting
 * it: only a regular file is read, and at most 1 MiB of it, so a wrong path to a log, an image, a folder,
 * a device or a named pipe ends in one short message, not in memory or a wait. A named pipe is opened
 * without waiting for a writer (O_NONBLOCK) and refused by what it is: a plain open would wait for ever.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

export const MAX_TARGET_FILE_BYTES = 1024 * 1024;

/** What a path that is not a regular file is, in words. */
function kindOf(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** The file's bytes; `invalid(what)` makes the error for a file that is not a regular file, cannot be read or is too large. */
export function readBoundedBytes(file: string, invalid: (what: string) => Error, usualSize: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw invalid(`cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  try {
    const kind = kindOf(fstatSync(fd));
    if (kind) throw new Refused(invalid(`is ${kind}, not a regular file`));
    const buffer = Buffer.alloc(MAX_TARGET_FILE_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > MAX_TARGET_FILE_BYTES)
      throw new Refused(invalid(`is larger than ${MAX_TARGET_FILE_BYTES / 1024 / 1024} MiB; ${usualSize}`));
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof Refused) throw error.error;
    throw invalid(`cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  } finally {
    closeSync(fd);
  }
}

/** The file's text (UTF-8), read as readBoundedBytes reads it. */
export function readBounded(file: string, invalid: (what: string) => Error, usualSize: string): string {
  return readBoundedBytes(file, invalid, usualSize).toString('utf8');
}

/** Carries a refusal past the catch that turns read errors into "cannot be read". */
class Refused {
  constructor(readonly error: Error) {}
}
