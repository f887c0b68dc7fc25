/**
 * Batch runs side by side: a batch leaves the cores idle while its vitest run starts, its workers import
 * the harness and its rate-limit files wait out their windows one after the other, and another batch can
 * use them. Each batch still runs its own vitest run against its own sandboxes (every variant alone);
 * only the order of the output is kept, so that the log reads as if they had run one after the other.
 */
import { availableParallelism } from 'node:os';

/** Batch runs at a time: one per core, at most `wanted` when set. */
export function batchesAtOnce(wanted?: number): number {
  return Math.max(1, wanted ?? availableParallelism());
}

/**
 * Runs `run` on every item, at most `limit` at a time, and hands each result to `report` in the items'
 * order, as soon as it and every earlier one are done.
 */
export async function inOrder<T, R>(
  items: T[],
  limit: number,
  run: (item: T) => Promise<R>,
  report: (item: T, result: R) => void,
): Promise<void> {
  let running = 0;
  const queued: Array<() => void> = [];
  // A slot is handed from a finished run to the first one waiting, so that batches start in their order.
  const acquire = () => (running < limit ? (running++, Promise.resolve()) : new Promise<void>((resolve) => queued.push(resolve)));
  const release = () => (queued.length ? queued.shift()!() : running--);
  const results = items.map(async (item) => {
    await acquire();
    try {
      return await run(item);
    } finally {
      release();
    }
  });
  for (const r of results) r.catch(() => undefined);
  for (let i = 0; i < items.length; i++) report(items[i], await results[i]);
}
