/**
 * Batch runs side by side: a batch leaves the cores idle while its vitest run starts, its workers import
 * the harness and its rate-limit files wait out their windows one after the other, and another batch can
 * use them. Each batch still runs its own vitest run against its own sandboxes (every variant alone);
 * only the order of the output is kept, so that the log reads as if they had run one after the other.
 * The fault run and the latitude run can share one set of slots (selftest/variant-runs.ts), so that the
 * cores one leaves idle at its end, or while its clean run or degenerate batch runs, go to the other.
 */
import { availableParallelism } from 'node:os';

/**
 * Batch runs at a time: `wanted` when set, else one per core and one more. A batch run has one worker
 * (selftest/variants/batch.ts), and its vitest process and sandbox wait on that worker now and then (and
 * its rate-limit files on their windows): one batch per core left the cores idle a tenth of the time.
 */
export function batchesAtOnce(wanted?: number): number {
  return Math.max(1, wanted ?? availableParallelism() + 1);
}

/** What hands out a slot to a run; `rank` puts a run before (lower) or after the user's own rank. */
export interface SlotUser {
  use<R>(run: () => Promise<R>, rank?: number): Promise<R>;
}

/** The rank of a run that goes before every other waiting run: one of the longest jobs. */
export const FIRST = Number.MIN_SAFE_INTEGER;

/**
 * At most `limit` runs at a time. A slot goes to the waiting run of the lowest rank, and among those of
 * one rank to the one that asked first.
 */
export class Slots implements SlotUser {
  private running = 0;
  private asked = 0;
  private readonly queued: Array<{ rank: number; order: number; start: () => void }> = [];

  constructor(readonly limit: number) {}

  /** Runs `run` in a slot, once one is free and no waiting run comes before it. */
  async use<R>(run: () => Promise<R>, rank = 0): Promise<R> {
    if (this.running < this.limit && this.queued.length === 0) this.running++;
    else
      await new Promise<void>((start) => {
        this.queued.push({ rank, order: this.asked++, start });
        this.queued.sort((a, b) => a.rank - b.rank || a.order - b.order);
      });
    try {
      return await run();
    } finally {
      // A slot is handed from a finished run to the first one waiting.
      const next = this.queued.shift();
      if (next) next.start();
      else this.running--;
    }
  }

  /** These slots, for runs of this rank (the lower, the sooner) unless a run names its own. */
  ranked(rank: number): SlotUser {
    return { use: (run, own) => this.use(run, own ?? rank) };
  }
}

/**
 * Runs `run` on every item, at most `limit` at a time (or in the slots shared with other runs), and hands
 * each result to `report` in the items' order, as soon as it and every earlier one are done.
 */
export async function inOrder<T, R>(
  items: T[],
  limit: number | SlotUser,
  run: (item: T) => Promise<R>,
  report: (item: T, result: R) => void,
): Promise<void> {
  const slots = typeof limit === 'number' ? new Slots(limit) : limit;
  const results: Array<Promise<R> | undefined> = items.map((item) => slots.use(() => run(item)));
  for (const r of results) r?.catch(() => undefined);
  for (let i = 0; i < items.length; i++) {
    const result = await results[i]!;
    // Let a reported result go: a batch run's reports and records are hundreds of MB over a whole
    // business suite, and PRECISION=full kept all 28 until the heap ran out after twelve.
    results[i] = undefined;
    report(items[i], result);
  }
}

/** Where a part of a run writes its lines. */
export interface Section {
  log(line: string): void;
  /** The part is done: the next section's lines follow. */
  end(): void;
}

/**
 * Parts of runs that go on at the same time, printed as if they had run one after the other: the first
 * unfinished section prints at once, a later one keeps its lines until every earlier section has ended.
 */
export class OrderedLog {
  private readonly sections: Array<{ lines: string[]; ended: boolean }> = [];
  private head = 0;

  constructor(private readonly print: (line: string) => void = (line) => console.log(line)) {}

  section(): Section {
    const state = { lines: [] as string[], ended: false };
    const index = this.sections.push(state) - 1;
    return {
      log: (line) => {
        if (index === this.head) this.print(line);
        else state.lines.push(line);
      },
      end: () => {
        state.ended = true;
        this.flush();
      },
    };
  }

  private flush(): void {
    while (this.head < this.sections.length && this.sections[this.head].ended) {
      this.head++;
      const next = this.sections[this.head];
      if (!next) break;
      for (const line of next.lines.splice(0)) this.print(line);
    }
  }
}
