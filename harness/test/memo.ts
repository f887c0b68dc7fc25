/**
 * The one memo of promises by key, with an explicit rule for a promise that rejects:
 *   forget  the next caller asks again (a control that failed to send, a transient error)
 *   keep    every caller gets the same rejection (a target found unreachable once costs one timeout)
 * A promise made here is work its callers share: whoever awaits it is held while it waits for a
 * pacing slot, as if the request were its own (harness/request/pace-hold.ts).
 */
import { holdingFor, SharedHold } from '../request/pace-hold.ts';

export type OnFailure = 'forget' | 'keep';

interface Entry<V> {
  promise: Promise<V>;
  hold: SharedHold;
}

export class PromiseMemo<K, V> {
  private readonly pending = new Map<K, Entry<V>>();
  constructor(private readonly onFailure: OnFailure) {}

  get(key: K, make: () => Promise<V>): Promise<V> {
    let entry = this.pending.get(key);
    if (!entry) {
      const hold = new SharedHold();
      entry = { promise: holdingFor(hold, make), hold };
      this.pending.set(key, entry);
      if (this.onFailure === 'forget') entry.promise.catch(() => this.pending.delete(key));
    }
    entry.hold.awaitedBy(entry.promise);
    return entry.promise;
  }

  /** The promise made for `key`, if any, without making one. */
  peek(key: K): Promise<V> | undefined {
    const entry = this.pending.get(key);
    entry?.hold.awaitedBy(entry.promise);
    return entry?.promise;
  }

  values(): Promise<V>[] {
    return [...this.pending.values()].map((entry) => {
      entry.hold.awaitedBy(entry.promise);
      return entry.promise;
    });
  }
}
