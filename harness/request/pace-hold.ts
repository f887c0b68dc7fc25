/**
 * Who is held while a request waits for its turn at the pace the rate limits allow. A test's time budget
 * (harness/test/test-budget.ts) is meant for the target's answers and the suite's own work, not for the
 * queue the limits make: while the waiting code works for a holder, that holder is held, from the
 * ask to the pacer until the slot it gives (harness/request/pacer.ts), and while a request waits behind its
 * business group's gate (harness/business/runtime/send.ts). The holder is carried by an
 * AsyncLocalStorage: inside a test, its budget; inside work several tests share (a memo's computation:
 * an operation's exchanges, a create many reads need), a `SharedHold`, and every caller that awaits that
 * work is held whenever it is, for as long as it awaits it. Outside both (a bench, a script) nobody is.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A holder's state: held while a hold is open, until the latest time it was held until, or while
 * work it awaits is held. Every change is told first to the callers that await it, so that a budget
 * counts the time before the change by the state it had.
 */
export class Hold {
  private open = 0;
  private until = 0;
  private readonly callers = new Set<Hold>();
  private readonly awaited = new Set<Hold>();

  /** Held from now until `until` (a Date.now() time). */
  holdUntil(until: number): void {
    const now = Date.now();
    if (until <= Math.max(now, this.until)) return;
    this.changing(now);
    this.until = until;
  }

  /** Held from now until the returned function is called. */
  holdOpen(): () => void {
    this.changing(Date.now());
    this.open++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.changing(Date.now());
      this.open--;
    };
  }

  /** Held whenever `work`'s hold is, until `settled` settles. */
  follow(work: Hold, settled: Promise<unknown>): void {
    if (work === this || this.awaited.has(work)) return;
    this.changing(Date.now());
    this.awaited.add(work);
    work.callers.add(this);
    const leave = () => {
      this.changing(Date.now());
      this.awaited.delete(work);
      work.callers.delete(this);
    };
    settled.then(leave, leave);
  }

  /** Whether a hold is open now, its own or that of work it awaits. */
  protected isOpen(): boolean {
    if (this.open > 0) return true;
    for (const work of this.awaited) if (work.isOpen()) return true;
    return false;
  }

  /** The latest time it is held until, its own or that of work it awaits. */
  protected heldUntil(): number {
    let until = this.until;
    for (const work of this.awaited) until = Math.max(until, work.heldUntil());
    return until;
  }

  /** Called before the state changes at `now`. */
  protected changing(now: number): void {
    for (const caller of this.callers) caller.changing(now);
  }
}

const storage = new AsyncLocalStorage<Hold>();

/** Runs `body` for `holder`: every wait for pace of every request it makes, however deep, holds it. */
export function holdingFor<T>(holder: Hold, body: () => T): T {
  return storage.run(holder, body);
}

export function currentHolder(): Hold | undefined {
  return storage.getStore();
}

/** Work several callers await: the caller awaiting it now is held whenever the work is, until it settles. */
export class SharedHold extends Hold {
  awaitedBy(work: Promise<unknown>): void {
    currentHolder()?.follow(this, work);
  }
}
