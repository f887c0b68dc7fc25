/**
 * Reads a response body as a stream and stops past a size cap, so that no answer, however large, is
 * held in memory beyond the cap (plus one chunk). An announced Content-Length over the cap stops the
 * read before any byte of the body.
 */
import type { Readable } from 'node:stream';

export type BoundedBody = { ok: true; bytes: Buffer } | { ok: false; readBytes: number; announced?: number };

/** `onBytes` hears the running total, so that a failure mid-body can say how far the body came. */
export async function readBounded(
  body: Readable,
  capBytes: number,
  contentLength?: string,
  onBytes?: (total: number) => void,
): Promise<BoundedBody> {
  const announced = contentLength !== undefined && /^\d+$/.test(contentLength.trim()) ? Number(contentLength) : undefined;
  if (announced !== undefined && announced > capBytes) {
    discard(body);
    return { ok: false, readBytes: 0, announced };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    onBytes?.(total);
    if (total > capBytes) {
      discard(body);
      return { ok: false, readBytes: total, announced };
    }
    chunks.push(buffer);
  }
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}

/** Drops a body unread (the connection is closed rather than drained). */
export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}
