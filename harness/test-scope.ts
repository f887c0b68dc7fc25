/**
 * The running test's scope, carried by AsyncLocalStorage so that the HTTP client can honour it without
 * every suite passing it along: the abort signal that fires when the test's time budget runs out.
 * Outside a test (a bench, a script, the global setup) there is no scope and nothing is aborted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TestScope {
  /** Aborted when the test's time budget runs out; every request of the test is aborted with it. */
  signal: AbortSignal;
  /** The requirement the test checks, for messages. */
  requirement: string;
}

const storage = new AsyncLocalStorage<TestScope>();

export function withTestScope<T>(scope: TestScope, body: () => Promise<T>): Promise<T> {
  return storage.run(scope, body);
}

export function currentTestScope(): TestScope | undefined {
  return storage.getStore();
}
