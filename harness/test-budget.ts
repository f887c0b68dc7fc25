/**
 * A test's time budget: time for the target's answers and the suite's own work, not for the queue the
 * rate limits make. The clock stops while the test is held at the pacer (its own requests' waits for
 * a slot, or those of shared work it awaits: harness/pace-hold.ts), so a test whose requests queue
 * behind the whole run's at a staging's documented limits, or behind more workers, gets the same time
 * for what it does as one that never queues; the pacer's wait is bounded by its schedule, and the held
 * time by MAX_HELD_MS. When the budget runs out, the signal aborts every request of the test and
 * `outOfTime` rejects with a TARGET_TIMEOUT tool error.
 */
import { ToolError } from './errors.ts';
import type { PaceHolder } from './pace-hold.ts';

/**
 * The most a test may be held at the pacer: far beyond the whole pacing of a run against a staging at its
 * documented limits (about five minutes at the standard depth), so that it only ends a test that keeps
 * queueing without end.
 */
export const MAX_HELD_MS = 60 * 60_000;

export class TestBudget implements PaceHolder {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  /** Rejects with TARGET_TIMEOUT when the budget runs out; never resolves. */
  readonly outOfTime: Promise<never>;
  private readonly startedAt = Date.now();
  private heldMs = 0;
  private heldUntil = this.startedAt;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(readonly allowanceMs: number) {
    this.outOfTime = new Promise<never>((_, reject) => {
      const check = () => {
        const left = this.deadline() - Date.now();
        if (left > 0) {
          this.timer = setTimeout(check, left);
          return;
        }
        this.ended = true;
        this.controller.abort();
        reject(new ToolError('TARGET_TIMEOUT', `the test did not finish within its time budget of ${this.describe()}; its requests were aborted`));
      };
      this.timer = setTimeout(check, allowanceMs);
    });
    // Nobody may be listening when the test ends in time.
    this.outOfTime.catch(() => undefined);
  }

  held(from: number, until: number): void {
    if (this.ended) return;
    const start = Math.max(from, this.heldUntil);
    if (until <= start) return;
    this.heldMs = Math.min(MAX_HELD_MS, this.heldMs + (until - start));
    this.heldUntil = until;
  }

  /** The time counted against the budget so far: everything since the start but the holds. */
  usedMs(now = Date.now()): number {
    const heldSoFar = this.heldMs - Math.max(0, this.heldUntil - now);
    return now - this.startedAt - Math.max(0, heldSoFar);
  }

  /** What the test spent: counted against its budget, and held at the pacer. */
  figures(now = Date.now()): { usedMs: number; heldMs: number; allowanceMs: number } {
    return { usedMs: this.usedMs(now), heldMs: now - this.startedAt - this.usedMs(now), allowanceMs: this.allowanceMs };
  }

  stop(): void {
    this.ended = true;
    clearTimeout(this.timer);
  }

  private deadline(): number {
    return this.startedAt + this.allowanceMs + this.heldMs;
  }

  private describe(): string {
    const held = Math.round(this.figures().heldMs / 1000);
    return `${this.allowanceMs} ms${held > 0 ? ` (not counting ${held} s held at the pacer for the rate limits)` : ''}`;
  }
}
