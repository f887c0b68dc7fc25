/**
 * The one memo of promises by key, with an explicit rule for a promise that rejects:
 *   forget  the next caller asks again (a control that failed to send, a transient error)
 *   keep    every caller gets the same rejection (a target found unreachable once costs one timeout)
 */
export type OnFailure = 'forget' | 'keep';

export class PromiseMemo<K, V> {
  private readonly pending = new Map<K, Promise<V>>();
  constructor(private readonly onFailure: OnFailure) {}

  get(key: K, make: () => Promise<V>): Promise<V> {
    let promise = this.pending.get(key);
    if (!promise) {
      promise = make();
      this.pending.set(key, promise);
      if (this.onFailure === 'forget') promise.catch(() => this.pending.delete(key));
    }
    return promise;
  }

  /** The promise made for `key`, if any, without making one. */
  peek(key: K): Promise<V> | undefined {
    return this.pending.get(key);
  }

  values(): Promise<V>[] {
    return [...this.pending.values()];
  }
}
