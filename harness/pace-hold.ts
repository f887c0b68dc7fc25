/**
 * Who is held while a request waits for its pacing slot. A test's time budget (harness/test-budget.ts)
 * is meant for the target's answers and the suite's own work, not for the queue the rate limits make:
 * the pacer tells whoever the waiting code works for that it is held from the ask until the slot
 * (harness/pacer.ts), and that holder's clock does not run meanwhile. The holder is carried by an
 * AsyncLocalStorage: inside a test, its budget; inside work shared by several tests (a memo's
 * computation: an operation's exchanges, a create many reads need), a `SharedHold`, which passes every
 * hold on to each caller for as long as it awaits that work. Outside both (a hook's prefetch with no
 * caller yet, a bench) nobody is held.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface PaceHolder {
  /** Held at the pacer from `from` until `until` (Date.now() times): that span does not count against it. */
  held(from: number, until: number): void;
}

const storage = new AsyncLocalStorage<PaceHolder>();

/** Runs `body` for `holder`: the pacing waits of every request it makes, however deep, hold it. */
export function holdingFor<T>(holder: PaceHolder, body: () => T): T {
  return storage.run(holder, body);
}

export function currentHolder(): PaceHolder | undefined {
  return storage.getStore();
}

/**
 * Work several callers await: each caller is held whenever the work is, from when it started to wait
 * (a caller that comes while the work waits for a slot is held until that slot).
 */
export class SharedHold implements PaceHolder {
  private heldUntil = 0;
  private readonly callers = new Map<PaceHolder, number>();

  held(from: number, until: number): void {
    this.heldUntil = Math.max(this.heldUntil, until);
    for (const [caller, since] of this.callers) caller.held(Math.max(from, since), until);
  }

  /** The current holder waits for `work` (done by this shared hold) until it settles. */
  awaitedBy(work: Promise<unknown>): void {
    const caller = currentHolder();
    if (caller === undefined || caller === this || this.callers.has(caller)) return;
    const now = Date.now();
    this.callers.set(caller, now);
    if (this.heldUntil > now) caller.held(now, this.heldUntil);
    const leave = () => void this.callers.delete(caller);
    work.then(leave, leave);
  }
}
