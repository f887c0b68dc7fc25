/**
 * A test's time budget: time for the target's answers and the suite's own work, not for the queue the
 * rate limits make. The clock stops while the test is held (harness/request/pace-hold.ts: its own requests'
 * waits for their turn, or those of shared work it awaits), so a test whose requests queue behind the
 * whole run's at a staging's documented limits, or behind more workers, gets the same time for what it
 * does as one that never queues. The pacer's waits are bounded by its schedule, and the time a test may
 * be held by MAX_HELD_MS. When the budget runs out, the signal aborts every request of the test and
 * `outOfTime` rejects with a TARGET_TIMEOUT tool error.
 */
import { ToolError } from '../errors.ts';
import { Hold } from '../request/pace-hold.ts';

/**
 * The most a test may be held: far beyond the whole pacing of a run against a staging at its documented
 * limits (under five minutes at the standard depth), so that it only ends a test that queues without end.
 */
export const MAX_HELD_MS = 60 * 60_000;

export class TestBudget extends Hold {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  /** Rejects with TARGET_TIMEOUT when the budget runs out; never resolves. */
  readonly outOfTime: Promise<never>;
  private readonly startedAt = Date.now();
  private counted = 0;
  private held = 0;
  private countedTo = this.startedAt;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(readonly allowanceMs: number) {
    super();
    this.outOfTime = new Promise<never>((_, reject) => {
      const check = () => {
        const now = Date.now();
        const left = this.allowanceMs - this.usedMs(now);
        if (left > 0) {
          // While held the clock stands: look again once it could have run out.
          const resumes = this.isOpen() ? now : Math.max(now, this.heldUntil());
          this.timer = setTimeout(check, resumes - now + left);
          return;
        }
        this.ended = true;
        this.controller.abort();
        reject(
          new ToolError(
            'TARGET_TIMEOUT',
            `the test did not finish within its time budget of ${this.describe()}; its requests were aborted`,
          ),
        );
      };
      this.timer = setTimeout(check, allowanceMs);
    });
    // Nobody listens when the test ends in time.
    this.outOfTime.catch(() => undefined);
  }

  /** The time counted against the budget so far: everything since the start but the time held. */
  usedMs(now = Date.now()): number {
    this.count(now);
    return this.counted;
  }

  /** What the test spent: counted against its budget, and held. */
  figures(now = Date.now()): { usedMs: number; heldMs: number; allowanceMs: number } {
    this.count(now);
    return { usedMs: this.counted, heldMs: this.held, allowanceMs: this.allowanceMs };
  }

  stop(): void {
    this.count(Date.now());
    this.ended = true;
    clearTimeout(this.timer);
  }

  protected override changing(now: number): void {
    this.count(now);
    super.changing(now);
  }

  /** Counts the time since the last count by the state the test had meanwhile (no change came between). */
  private count(now: number): void {
    if (this.ended || now <= this.countedTo) return;
    const span = now - this.countedTo;
    const running = this.isOpen() ? 0 : now - Math.min(now, Math.max(this.countedTo, this.heldUntil()));
    const held = Math.min(span - running, MAX_HELD_MS - this.held);
    this.held += held;
    this.counted += span - held;
    this.countedTo = now;
  }

  private describe(): string {
    const held = Math.round(this.held / 1000);
    return `${this.allowanceMs} ms${held > 0 ? ` (not counting ${held} s it was held waiting for its turn at the rate limits)` : ''}`;
  }
}
